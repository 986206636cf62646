import { remembered } from '../base/remembered.ts'
import { dateIn, languageNameIn, numberIn, percentIn, ratingIn } from './formatters.ts'
import type { Locale } from './locale.ts'
import { fillMessage } from './message.ts'
import type { MessageKey, Messages, Translator } from './types.ts'

// Holds no catalogue: the island formats with the messages the server hands it, under the core's rules.

// Date.parse reads almost anything ("&#60;" is a date to V8): only an ISO 8601 date or date-time is one here.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i

const DAY = 86_400_000
/** Days a {@link TextFormatter} keeps: some eleven years of reviews. */
const DAYS_MAX = 4096
/** Ratings a {@link TextFormatter} keeps. */
const RATINGS_MAX = 1000

/** Everything a review component says, in one supported language. */
export interface TextFormatter {
  /** The supported language it speaks. */
  locale: Locale
  /** A message with its placeholders filled; a key missing from the messages given reads as the key. */
  t: Translator
  /** A date from the API as a long date in UTC, or `undefined` when it is not an ISO 8601 date. */
  date(iso: string | null | undefined): string | undefined
  /** A number with the separators of the language. */
  number(value: number): string
  /** A rating with one decimal, as the stars' accessible name and the JSON-LD give it. */
  rating(value: number): string
  /** A share from 0 to 1 as a whole percentage. */
  percent(ratio: number): string
  /** The name of a language code in this language; the code itself when it names no language. */
  languageName(code: string): string
}

/**
 * A {@link TextFormatter} for `locale` from some of its messages (`getMessages(locale)` for all of them),
 * without the message catalogue: numbers, plurals, dates and language names follow the rules of `t` and
 * the `format*` functions of `@verified-reviews/core/i18n`.
 */
export function createTextFormatter(locale: Locale, messages: Partial<Messages>): TextFormatter {
  // A page shows the same few days and ratings many times, and each goes through `Intl` (a microsecond
  // or more a call): what each gave is kept, up to DAYS_MAX and RATINGS_MAX (then they start again).
  const days = new Map<number, string>()
  const ratings = new Map<number, string>()
  const translate = (key: MessageKey, params?: Record<string, unknown>): string => {
    const message = messages[key]
    return message === undefined ? key : fillMessage(locale, message, params ?? {})
  }
  return {
    locale,
    t: Object.assign(translate, { locale }) as Translator,
    date: (iso) => {
      if (typeof iso !== 'string' || !ISO_DATE.test(iso.trim())) return undefined
      const time = Date.parse(iso.trim())
      if (Number.isNaN(time)) return undefined
      // A long date in UTC names the day alone.
      return remembered(days, Math.floor(time / DAY), () => dateIn(locale, time), DAYS_MAX)
    },
    number: (value) => numberIn(locale, value),
    // -0 shows as "-0.0", and a map takes it for 0.
    rating: (value) =>
      Object.is(value, -0)
        ? ratingIn(locale, value)
        : remembered(ratings, value, () => ratingIn(locale, value), RATINGS_MAX),
    percent: (ratio) => percentIn(locale, ratio),
    languageName: (code) => languageNameIn(locale, code),
  }
}
