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

// Date.parse reads almost anything ("&#60;" is a date to V8): only an ISO 8601 date or date-time is one here.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i

/** Everything a component says, in one resolved language. */
export interface Text {
  /** The supported language the `locale` prop resolved to. */
  locale: Locale
  t: Translator
  /** A date from the API, or `undefined` when it is not an ISO 8601 date. */
  date(iso: string | null | undefined): string | undefined
  number(value: number): string
  /** A rating with one decimal, as the stars' accessible name and the JSON-LD give it. */
  rating(value: number): string
  /** A share from 0 to 1 as a whole percentage. */
  percent(ratio: number): string
  /** The name of a language code in the page language. */
  languageName(code: string): string
}

/** The texts of a component for its `locale` prop (resolved to a supported language, `en` by default). */
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

/** A message key with its parameters, for the callers that pick the key at run time. */
export type AnyMessage = (key: MessageKey, params?: Record<string, string | number>) => string

/** `t` without the per-key parameter typing, for messages whose placeholders are filled by markers. */
export function untyped(text: Text): AnyMessage {
  return text.t as unknown as AnyMessage
}
