import { dateIn, languageNameIn, numberIn, percentIn, ratingIn } from './formatters.ts'
import { resolveLocale } from './locale.ts'

/**
 * `value` formatted for `locale` by `Intl.NumberFormat` (`fr`: `12 345`).
 * @param options `Intl.NumberFormat` options.
 */
export function formatNumber(locale: string, value: number, options?: Intl.NumberFormatOptions): string {
  return numberIn(resolveLocale(locale), value, options)
}

/**
 * A rating with a fixed number of decimals, as the star rating shows it (`fr`: `4,6`; `en`: `4.0`).
 * @param decimals Decimal places. @default 1
 */
export function formatRating(locale: string, value: number, decimals = 1): string {
  return ratingIn(resolveLocale(locale), value, decimals)
}

/** A share from 0 to 1 as a whole percentage (`fr`: `42 %`). */
export function formatPercent(locale: string, ratio: number): string {
  return percentIn(resolveLocale(locale), ratio)
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
  const time = date instanceof Date ? date.getTime() : typeof date === 'number' ? date : Date.parse(date)
  if (Number.isNaN(time)) throw new RangeError(`formatDate: ${JSON.stringify(String(date))} is not a date`)
  return dateIn(resolveLocale(locale), time, options)
}

/**
 * The name of a language in `locale`'s language, through `Intl.DisplayNames` (`fr`, `en` → `anglais`);
 * the code itself when it names no language.
 */
export function languageName(locale: string, language: string): string {
  return languageNameIn(resolveLocale(locale), language)
}
