import { describe, expect, it } from 'vitest'
import { CATALOG } from './catalog.ts'
import { SUPPORTED_LOCALES } from './locale.ts'
import { en } from './messages/en.ts'
import { t } from './translate.ts'
import type { MessageKey, PluralMessage } from './types.ts'

const KEYS = Object.keys(en) as MessageKey[]
const TRANSLATED = SUPPORTED_LOCALES.filter((locale) => locale !== 'en')

/**
 * Messages allowed to read as in English: "{rating}/5", a rating written the same way in every language
 * (only its decimal separator changes, and the number format gives that); brand names would go here.
 */
const SAME_AS_ENGLISH: ReadonlySet<string> = new Set<string>(
  TRANSLATED.map((locale) => `${locale}.ratingOutOfFiveShort`),
)

/** Sample values for every placeholder, so every message can be rendered. */
const SAMPLE_PARAMS = {
  name: 'Maison Exemple',
  count: 128,
  rating: 4.6,
  stars: '5 ★',
  provider: 'Verified Reviews',
  source: 'shop.example',
  merchant: 'Maison Exemple',
  language: 'English',
  date: '1 March 2025',
  author: 'Marie D.',
  min: 1,
  max: 10,
}

function forms(message: string | PluralMessage): string[] {
  return typeof message === 'string' ? [message] : Object.values(message)
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort()
}

describe('the message catalog', () => {
  it('has the 13 languages of translated_review', () => {
    expect(Object.keys(CATALOG).sort()).toEqual([...SUPPORTED_LOCALES].sort())
    expect(SUPPORTED_LOCALES).toHaveLength(13)
  })

  it.each(SUPPORTED_LOCALES)('has every key and no other in %s', (locale) => {
    expect(Object.keys(CATALOG[locale]).sort()).toEqual([...KEYS].sort())
  })

  it.each(SUPPORTED_LOCALES)('has a plural message in %s exactly where English has one', (locale) => {
    for (const key of KEYS) {
      expect({ key, type: typeof CATALOG[locale][key] }).toEqual({ key, type: typeof en[key] })
    }
  })

  it.each(SUPPORTED_LOCALES)(
    'gives every plural message of %s each plural category of the language',
    (locale) => {
      const categories = [...new Intl.PluralRules(locale).resolvedOptions().pluralCategories].sort()
      for (const key of KEYS) {
        const message = CATALOG[locale][key]
        if (typeof message === 'string') continue
        expect({ key, categories: Object.keys(message).sort() }).toEqual({ key, categories })
      }
    },
  )

  it.each(TRANSLATED)('translates every message into %s', (locale) => {
    const untranslated = KEYS.filter(
      (key) =>
        !SAME_AS_ENGLISH.has(`${locale}.${key}`) &&
        forms(CATALOG[locale][key]).some((form) => forms(en[key]).includes(form)),
    )
    expect(untranslated).toEqual([])
  })

  it.each(TRANSLATED)('keeps every placeholder of English, and adds none, in each form of %s', (locale) => {
    for (const key of KEYS) {
      const expected = [...new Set(forms(en[key]).flatMap(placeholders))].sort()
      for (const form of forms(CATALOG[locale][key])) {
        expect({ key, form, placeholders: [...new Set(placeholders(form))].sort() }).toEqual({
          key,
          form,
          placeholders: expected,
        })
      }
    }
  })

  it.each(SUPPORTED_LOCALES)('renders every message of %s with sample parameters', (locale) => {
    for (const key of KEYS) {
      for (const count of [0, 1, 2, 5, 22, 1.5, 1_000_000]) {
        const text = t(locale, key, { ...SAMPLE_PARAMS, count } as never)
        expect(text.trim()).not.toBe('')
        expect(text).not.toMatch(/[{}]/)
      }
    }
  })

  it.each(SUPPORTED_LOCALES)('has no stray whitespace or straight quotes in the messages of %s', (locale) => {
    for (const key of KEYS) {
      for (const form of forms(CATALOG[locale][key])) {
        expect({ key, form }).toEqual({ key, form: form.trim() })
        expect(form).not.toMatch(/ {2}|"/)
      }
    }
  })
})
