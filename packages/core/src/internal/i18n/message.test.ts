import { describe, expect, it } from 'vitest'
import { messageNumberIn, pluralRules } from './formatters.ts'
import type { Locale } from './locale.ts'
import { SUPPORTED_LOCALES } from './locale.ts'
import { fillMessage } from './message.ts'
import { getMessages } from './translate.ts'
import type { PluralMessage } from './types.ts'

/** What a message with its placeholders filled reads, by a regular expression over the whole template. */
function filledByReplace(
  locale: Locale,
  message: string | PluralMessage,
  params: Record<string, unknown>,
): string {
  const template =
    typeof message === 'string'
      ? message
      : (message[pluralRules(locale).select(typeof params.count === 'number' ? params.count : 0)] ??
        message.other)
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => {
    const value = params[name]
    if (typeof value === 'number') return messageNumberIn(locale, value)
    return typeof value === 'string' ? value : placeholder
  })
}

describe('fillMessage', () => {
  const params = [
    { count: 1, rating: 4.56, name: 'Lyon', author: 'Marie D.', date: '1 March 2025', stars: '5 stars' },
    { count: 1_280, rating: 5, name: '{rating}', author: '', language: 'français' },
    // Values that are not text or numbers leave their placeholders as they are.
    { count: 0, rating: null, name: undefined, author: { name: 'x' }, date: true },
    {},
  ]
  for (const locale of SUPPORTED_LOCALES) {
    it(`fills every message of ${locale} as a replacement over the template does`, () => {
      for (const message of Object.values(getMessages(locale))) {
        for (const given of params) {
          expect(fillMessage(locale, message, given)).toBe(filledByReplace(locale, message, given))
          // Again, from the template it split the first time.
          expect(fillMessage(locale, message, given)).toBe(filledByReplace(locale, message, given))
        }
      }
    })
  }

  it('fills placeholders at either end, side by side and repeated, and leaves other braces', () => {
    const given = { a: 'A', b: 2.25, c: 'C' }
    for (const template of [
      '{a}',
      '{a}{b}',
      '{a} and {a}',
      'x{c}',
      '{a}y',
      '{ a } {} {a-b} {{a}}',
      'no placeholder',
      '',
    ]) {
      expect(fillMessage('en', template, given), template).toBe(filledByReplace('en', template, given))
    }
    expect(fillMessage('en', '{a}{b}{c}', given)).toBe('A2.3C')
    expect(fillMessage('fr', '{b} / {missing}', given)).toBe('2,3 / {missing}')
  })

  it("does not take an object's own properties for values", () => {
    expect(fillMessage('en', '{constructor} {toString}', {})).toBe('{constructor} {toString}')
  })
})
