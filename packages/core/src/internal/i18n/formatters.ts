import type { Locale } from './locales.ts'

// On a language already resolved, so that the browser (the island) formats without `resolveLocale`.

// Intl formatters are costly to build and a page formats hundreds of values: one per language and options.
const formatters = new Map<string, unknown>()

function cached<T>(kind: string, locale: Locale, options: object | undefined, make: () => T): T {
  const key = `${kind}\u0000${locale}\u0000${JSON.stringify(options ?? {})}`
  let formatter = formatters.get(key) as T | undefined
  if (formatter === undefined) {
    formatter = make()
    formatters.set(key, formatter)
  }
  return formatter
}

/** The plural rules of a supported language. */
export function pluralRules(locale: Locale): Intl.PluralRules {
  return cached('plural', locale, undefined, () => new Intl.PluralRules(locale))
}

/** `value` through `Intl.NumberFormat` with `options`. */
export function numberIn(locale: Locale, value: number, options?: Intl.NumberFormatOptions): string {
  return cached('number', locale, options, () => new Intl.NumberFormat(locale, options)).format(value)
}

/** A rating with `decimals` decimal places. */
export function ratingIn(locale: Locale, value: number, decimals = 1): string {
  return numberIn(locale, value, { minimumFractionDigits: decimals, maximumFractionDigits: decimals })
}

/** A share from 0 to 1 as a whole percentage. */
export function percentIn(locale: Locale, ratio: number): string {
  return numberIn(locale, ratio, { style: 'percent', maximumFractionDigits: 0 })
}

/** A time (epoch milliseconds) by `Intl.DateTimeFormat`: a long UTC date unless `options` say otherwise. */
export function dateIn(locale: Locale, time: number, options?: Intl.DateTimeFormatOptions): string {
  const withDefaults: Intl.DateTimeFormatOptions = { timeZone: 'UTC', ...(options ?? { dateStyle: 'long' }) }
  return cached('date', locale, withDefaults, () => new Intl.DateTimeFormat(locale, withDefaults)).format(
    time,
  )
}

/** The name of a language code through `Intl.DisplayNames`; the code itself when it names no language. */
export function languageNameIn(locale: Locale, language: string): string {
  try {
    const names = cached(
      'language',
      locale,
      undefined,
      () => new Intl.DisplayNames(locale, { type: 'language' }),
    )
    return names.of(language) ?? language
  } catch {
    return language
  }
}
