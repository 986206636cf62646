import { describe, expect, it } from 'vitest'
import { createTranslator, getMessages, t } from './translate.ts'

describe('t', () => {
  it('fills placeholders and formats numbers for the language', () => {
    expect(t('fr', 'ratingLabel', { rating: 4.56, count: 1280 })).toBe('4,6 sur 5, 1\u202f280 avis')
    expect(t('en', 'ratingLabel', { rating: 4.6, count: 128 })).toBe('4.6 out of 5, 128 reviews')
  })

  it('chooses the singular for one', () => {
    expect(t('en', 'reviewCount', { count: 1 })).toBe('1 review')
  })

  it.each([
    [1, '1 hvězdička'],
    [2, '2 hvězdičky'],
    [4, '4 hvězdičky'],
    [5, '5 hvězdiček'],
    [1.5, '1,5 hvězdičky'],
  ])('chooses the Czech form for %s stars', (count, expected) => {
    expect(t('cs', 'starCount', { count })).toBe(expected)
  })

  it.each([
    [1, '1 opinia'],
    [3, '3 opinie'],
    [5, '5 opinii'],
    [22, '22 opinie'],
    [25, '25 opinii'],
  ])('chooses the Polish form for %s reviews', (count, expected) => {
    expect(t('pl', 'reviewCount', { count })).toBe(expected)
  })

  it('uses the French form for millions', () => {
    expect(t('fr', 'reviewCount', { count: 1_000_000 })).toBe('1\u202f000\u202f000 d’avis')
  })

  it('uses the Bulgarian count form', () => {
    expect(t('bg', 'reviewCount', { count: 2 })).toBe('2 отзива')
  })

  it('takes strings as they are', () => {
    expect(t('de', 'responseFrom', { merchant: 'Laden <b>' })).toBe('Antwort von Laden <b>')
  })

  it('resolves the language first', () => {
    expect(t('es-MX', 'noReviews')).toBe('Todavía no hay opiniones')
    expect(t('ja', 'noReviews')).toBe('No reviews yet')
  })
})

describe('createTranslator', () => {
  it('speaks the resolved language', () => {
    const translate = createTranslator('sk-SK')
    expect(translate.locale).toBe('sk')
    expect(translate('reviewCount', { count: 3 })).toBe('3 recenzie')
  })
})

describe('getMessages', () => {
  it('gives the messages of the resolved language', () => {
    expect(getMessages('el-CY').noReviews).toBe('Δεν υπάρχουν ακόμη κριτικές')
  })
})
