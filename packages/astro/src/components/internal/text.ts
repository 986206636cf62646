import {
  createTranslator,
  formatDate,
  formatNumber,
  formatPercent,
  formatRating,
  type Locale,
  languageName,
  type MessageKey,
  type Translator,
} from '@verified-reviews/core/i18n'

// Date.parse reads almost anything: only an ISO 8601 date or date-time counts as a date here.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i

/** Everything a component says, in one resolved language (as the React components say it). */
export interface Text {
  locale: Locale
  t: Translator
  /** A date from the API, or `undefined` when it is not an ISO 8601 date. */
  date(iso: string | null | undefined): string | undefined
  number(value: number): string
  rating(value: number): string
  percent(ratio: number): string
  languageName(code: string): string
}

/** The texts of a component for its `locale` (resolved to a supported language, `en` by default). */
export function getText(locale: string | undefined): Text {
  const t = createTranslator(locale ?? 'en')
  const resolved = t.locale
  return {
    locale: resolved,
    t,
    date: (iso) => {
      if (typeof iso !== 'string' || !ISO_DATE.test(iso.trim())) return undefined
      try {
        return formatDate(resolved, iso.trim())
      } catch {
        return undefined
      }
    },
    number: (value) => formatNumber(resolved, value),
    rating: (value) => formatRating(resolved, value),
    percent: (ratio) => formatPercent(resolved, ratio),
    languageName: (code) => languageName(resolved, code),
  }
}

// Private-use characters never occur in messages, so they mark where an element goes.
const MARK = '\uE000'

/** A piece of a message: text, or the name of a placeholder that an element fills. */
export type MessagePart = { text: string } | { slot: string }

/**
 * A translated message cut where elements go ("Originally posted on {source}", a link as `source`):
 * translated with markers, then split on them, so an element's own text never passes through the
 * message formatter.
 */
export function messageParts(
  text: Text,
  key: MessageKey,
  slots: readonly string[],
  values: Record<string, string | number> = {},
): MessagePart[] {
  const markers = Object.fromEntries(slots.map((name) => [name, `${MARK}${name}${MARK}`]))
  const translate = text.t as unknown as (key: MessageKey, params: Record<string, string | number>) => string
  return translate(key, { ...values, ...markers })
    .split(MARK)
    .map((part, i) => (i % 2 === 1 ? { slot: part } : { text: part }))
}

/** The level below `level`, kept at 6 at most. */
export function subLevel(level: HeadingLevel): HeadingLevel {
  return level < 6 ? ((level + 1) as HeadingLevel) : 6
}

/** Level of a heading element, `h1` to `h6`. */
export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6

/** Class names joined, leaving out the empty ones. */
export function classes(...names: (string | false | undefined)[]): string {
  return names.filter(Boolean).join(' ')
}
