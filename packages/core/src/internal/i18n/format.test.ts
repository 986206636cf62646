import { describe, expect, it } from 'vitest'
import { formatDate, formatNumber, formatPercent, formatRating, languageName } from './format.ts'

describe('formatRating', () => {
  it('shows one decimal with the separator of the language', () => {
    expect(formatRating('fr', 4.56)).toBe('4,6')
    expect(formatRating('en', 4)).toBe('4.0')
  })

  it('shows the decimals asked for', () => {
    expect(formatRating('de', 4.567, 2)).toBe('4,57')
  })
})

describe('formatNumber', () => {
  it('groups digits as the language does', () => {
    expect(formatNumber('de', 12345)).toBe('12.345')
    expect(formatNumber('en-GB', 12345)).toBe('12,345')
  })

  it('falls back to English for an unsupported language', () => {
    expect(formatNumber('ja', 12345.5)).toBe('12,345.5')
  })
})

describe('formatPercent', () => {
  it('shows a whole percentage', () => {
    expect(formatPercent('en', 0.426)).toBe('43%')
  })
})

describe('formatDate', () => {
  it('shows a long date in UTC by default', () => {
    expect(formatDate('fr', '2025-03-01T23:30:00-05:00')).toBe('2 mars 2025')
    expect(formatDate('cs', '2025-03-01T10:00:00Z')).toBe('1. března 2025')
  })

  it('takes Intl options, keeping UTC unless a time zone is given', () => {
    expect(formatDate('en', '2025-03-01T23:30:00Z', { month: 'short', day: 'numeric' })).toBe('Mar 1')
    expect(formatDate('en', '2025-03-01T23:30:00Z', { day: 'numeric', timeZone: 'Asia/Tokyo' })).toBe('2')
  })

  it('takes a Date and epoch milliseconds', () => {
    const time = Date.UTC(2024, 0, 15)
    expect(formatDate('de', new Date(time))).toBe(formatDate('de', time))
  })

  it('throws a RangeError for text that is not a date', () => {
    expect(() => formatDate('en', 'yesterday')).toThrow(RangeError)
  })
})

describe('languageName', () => {
  it('names a language in the language of the page', () => {
    expect(languageName('fr', 'en')).toBe('anglais')
    expect(languageName('bg', 'de')).toBe('немски')
    expect(languageName('el', 'fr')).toBe('Γαλλικά')
  })

  it('gives the code back when it names no language', () => {
    expect(languageName('en', '%%')).toBe('%%')
  })
})
