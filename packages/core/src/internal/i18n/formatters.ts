import { remembered } from '../base/remembered.ts'
import type { Locale } from './locale.ts'

// On a language already resolved, so that the browser (the island) formats without `resolveLocale`.

// Intl formatters are costly to build and a page formats hundreds of values: one per language and options,
// found by a key that the common cases build without serializing their options.
const formatters = new Map<string, unknown>()

function cached<T>(key: string, make: () => T): T {
  return remembered(formatters, key, make) as T
}

/** The plural rules of a supported language. */
export function pluralRules(locale: Locale): Intl.PluralRules {
  return cached(`plural\u0000${locale}`, () => new Intl.PluralRules(locale))
}

/** `value` through `Intl.NumberFormat` with `options`. */
export function numberIn(locale: Locale, value: number, options?: Intl.NumberFormatOptions): string {
  const key = `number\u0000${locale}\u0000${options === undefined ? '' : JSON.stringify(options)}`
  return cached(key, () => new Intl.NumberFormat(locale, options)).format(value)
}

/** A number in a message: at most one decimal, as a rating is shown. */
export function messageNumberIn(locale: Locale, value: number): string {
  return cached(
    `message-number\u0000${locale}`,
    () => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }),
  ).format(value)
}

/** A rating with `decimals` decimal places. */
export function ratingIn(locale: Locale, value: number, decimals = 1): string {
  return cached(
    `rating\u0000${locale}\u0000${decimals}`,
    () => new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }),
  ).format(value)
}

/** A share from 0 to 1 as a whole percentage. */
export function percentIn(locale: Locale, ratio: number): string {
  return cached(
    `percent\u0000${locale}`,
    () => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }),
  ).format(ratio)
}

/** A time (epoch milliseconds) by `Intl.DateTimeFormat`: a long UTC date unless `options` say otherwise. */
export function dateIn(locale: Locale, time: number, options?: Intl.DateTimeFormatOptions): string {
  const withDefaults: Intl.DateTimeFormatOptions = { timeZone: 'UTC', ...(options ?? { dateStyle: 'long' }) }
  const key = `date\u0000${locale}\u0000${options === undefined ? '' : JSON.stringify(withDefaults)}`
  return cached(key, () => new Intl.DateTimeFormat(locale, withDefaults)).format(time)
}

/** Language names already asked for, by language and code. */
const languageNames = new Map<string, string>()

/** The name of a language code through `Intl.DisplayNames`; the code itself when it names no language. */
export function languageNameIn(locale: Locale, language: string): string {
  const name = () => {
    try {
      const names = cached(
        `language\u0000${locale}`,
        () => new Intl.DisplayNames(locale, { type: 'language' }),
      )
      return names.of(language) ?? language
    } catch {
      return language
    }
  }
  // Codes come from reviews: bounded, so that a stream of odd codes cannot grow it without end.
  return remembered(languageNames, `${locale}\u0000${language}`, name, 1000)
}
