import { resolveLocale } from './locale.ts'

/** Intl formatters are costly to build and a page formats hundreds of values: keep one per locale and options. */
const formatters = new Map<string, unknown>()

function cached<T>(kind: string, locale: string, options: object | undefined, make: () => T): T {
  const key = `${kind}\u0000${locale}\u0000${JSON.stringify(options ?? {})}`
  let formatter = formatters.get(key) as T | undefined
  if (formatter === undefined) {
    formatter = make()
    formatters.set(key, formatter)
  }
  return formatter
}

/** The plural rules of a supported language. */
export function pluralRules(locale: string): Intl.PluralRules {
  const resolved = resolveLocale(locale)
  return cached('plural', resolved, undefined, () => new Intl.PluralRules(resolved))
}

/**
 * `value` formatted for `locale` by `Intl.NumberFormat` (`fr`: `12 345`).
 * @param options `Intl.NumberFormat` options.
 */
export function formatNumber(locale: string, value: number, options?: Intl.NumberFormatOptions): string {
  const resolved = resolveLocale(locale)
  return cached('number', resolved, options, () => new Intl.NumberFormat(resolved, options)).format(value)
}

/**
 * A rating with a fixed number of decimals, as the star rating shows it (`fr`: `4,6`; `en`: `4.0`).
 * @param decimals Decimal places. @default 1
 */
export function formatRating(locale: string, value: number, decimals = 1): string {
  return formatNumber(locale, value, { minimumFractionDigits: decimals, maximumFractionDigits: decimals })
}

/** A share from 0 to 1 as a whole percentage (`fr`: `42 %`). */
export function formatPercent(locale: string, ratio: number): string {
  return formatNumber(locale, ratio, { style: 'percent', maximumFractionDigits: 0 })
}

/**
 * A date (ISO 8601 string, `Date` or epoch milliseconds) formatted for `locale` by `Intl.DateTimeFormat`.
 * Dates are shown in UTC unless `options.timeZone` says otherwise, so that a page renders the same on
 * every server.
 * @param options `Intl.DateTimeFormat` options. @default { dateStyle: 'long', timeZone: 'UTC' }
 * @throws RangeError when `date` is not a date.
 */
export function formatDate(
  locale: string,
  date: string | number | Date,
  options?: Intl.DateTimeFormatOptions,
): string {
  const resolved = resolveLocale(locale)
  const time = date instanceof Date ? date.getTime() : typeof date === 'number' ? date : Date.parse(date)
  if (Number.isNaN(time)) throw new RangeError(`formatDate: ${JSON.stringify(String(date))} is not a date`)
  const withDefaults: Intl.DateTimeFormatOptions = { timeZone: 'UTC', ...(options ?? { dateStyle: 'long' }) }
  return cached('date', resolved, withDefaults, () => new Intl.DateTimeFormat(resolved, withDefaults)).format(
    time,
  )
}

/**
 * The name of a language in `locale`'s language, through `Intl.DisplayNames` (`fr`, `en` → `anglais`);
 * the code itself when it names no language.
 */
export function languageName(locale: string, language: string): string {
  const resolved = resolveLocale(locale)
  try {
    const names = cached(
      'language',
      resolved,
      undefined,
      () => new Intl.DisplayNames(resolved, { type: 'language' }),
    )
    return names.of(language) ?? language
  } catch {
    return language
  }
}
