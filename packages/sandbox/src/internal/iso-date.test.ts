import { describe, expect, it } from 'vitest'
import { isIsoDateTime, isIsoDay, parseIsoDateTime, parseIsoDay } from './iso-date.ts'

describe('parseIsoDateTime', () => {
  it('reads a date-time without seconds', () => {
    expect(parseIsoDateTime('2025-03-01T10:00Z')).toBe(Date.UTC(2025, 2, 1, 10))
  })

  it('reads seconds and a fraction written with a point or a comma', () => {
    expect(parseIsoDateTime('2025-03-01T10:00:30.25Z')).toBe(Date.UTC(2025, 2, 1, 10, 0, 30, 250))
    expect(parseIsoDateTime('2025-03-01T10:00:30,5Z')).toBe(Date.UTC(2025, 2, 1, 10, 0, 30, 500))
  })

  it('honours offsets written ±hh:mm, ±hhmm and ±hh', () => {
    expect(parseIsoDateTime('2025-03-01T10:00+02:00')).toBe(Date.UTC(2025, 2, 1, 8))
    expect(parseIsoDateTime('2025-03-01T10:00-0330')).toBe(Date.UTC(2025, 2, 1, 13, 30))
    expect(parseIsoDateTime('2025-03-01T10:00+02')).toBe(Date.UTC(2025, 2, 1, 8))
  })

  it('takes a date-time without an offset as UTC', () => {
    expect(parseIsoDateTime('2025-03-01T10:30')).toBe(Date.UTC(2025, 2, 1, 10, 30))
  })

  it.each([
    '2025-03-01',
    '2025-03-01T10Z',
    '20250301T100000Z',
    '2025-02-29T10:00Z',
    '2025-03-01T24:00Z',
    '2025-03-01T10:60Z',
    '2025-03-01T10:00:60Z',
    '2025-03-01T10:00+24:00',
    '2025-03-01t10:00z',
  ])('refuses %s', (value) => {
    expect(isIsoDateTime(value)).toBe(false)
  })
})

describe('parseIsoDay', () => {
  it('reads a date as midnight UTC, the 29th of February of a leap year included', () => {
    expect(parseIsoDay('2024-02-29')).toBe(Date.UTC(2024, 1, 29))
  })

  it('refuses a day the month does not have, and a date-time', () => {
    expect(isIsoDay('2025-02-29')).toBe(false)
    expect(isIsoDay('2024-02-29T00:00:00Z')).toBe(false)
  })
})
