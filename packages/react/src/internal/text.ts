import type { Locale, MessageKey, Messages, PluralMessage, Translator } from '@verified-reviews/core/i18n'

// This module holds no catalogue, so the island can format what the server hands it without carrying the
// 13 languages; its rules are those of `@verified-reviews/core/i18n` (a test checks that both agree).

// Date.parse reads almost anything ("&#60;" is a date to V8): only an ISO 8601 date or date-time is one here.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i

const PLACEHOLDER = /\{(\w+)\}/g

/** Some messages of one language: all of them on the server, those the island shows in the browser. */
export type TextMessages = Partial<Messages>

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

// Intl objects are costly to build and a page formats hundreds of values: one per language and options.
const formatters = new Map<string, unknown>()

function formatter<T>(kind: string, locale: Locale, options: object, make: () => T): T {
  const key = `${kind}\u0000${locale}\u0000${JSON.stringify(options)}`
  let found = formatters.get(key) as T | undefined
  if (found === undefined) {
    found = make()
    formatters.set(key, found)
  }
  return found
}

const MESSAGE_NUMBER: Intl.NumberFormatOptions = { maximumFractionDigits: 1 }
const RATING: Intl.NumberFormatOptions = { minimumFractionDigits: 1, maximumFractionDigits: 1 }
const PERCENT: Intl.NumberFormatOptions = { style: 'percent', maximumFractionDigits: 0 }
const LONG_DATE: Intl.DateTimeFormatOptions = { timeZone: 'UTC', dateStyle: 'long' }

function formatNumber(locale: Locale, value: number, options: Intl.NumberFormatOptions): string {
  return formatter('number', locale, options, () => new Intl.NumberFormat(locale, options)).format(value)
}

function fill(locale: Locale, message: string | PluralMessage, params: Record<string, unknown>): string {
  const count = typeof params.count === 'number' ? params.count : 0
  const template =
    typeof message === 'string'
      ? message
      : (message[formatter('plural', locale, {}, () => new Intl.PluralRules(locale)).select(count)] ??
        message.other)
  return template.replace(PLACEHOLDER, (placeholder, name: string) => {
    const value = params[name]
    if (typeof value === 'number') return formatNumber(locale, value, MESSAGE_NUMBER)
    return typeof value === 'string' ? value : placeholder
  })
}

/**
 * The texts of one language from its messages. A key missing from `messages` reads as the key itself,
 * which the island's tests would show.
 */
export function createText(locale: Locale, messages: TextMessages): Text {
  const translate = (key: MessageKey, params?: Record<string, unknown>): string => {
    const message = messages[key]
    return message === undefined ? key : fill(locale, message, params ?? {})
  }
  return {
    locale,
    t: Object.assign(translate, { locale }) as Translator,
    date: (iso) => {
      if (typeof iso !== 'string' || !ISO_DATE.test(iso.trim())) return undefined
      const time = Date.parse(iso.trim())
      if (Number.isNaN(time)) return undefined
      return formatter('date', locale, LONG_DATE, () => new Intl.DateTimeFormat(locale, LONG_DATE)).format(
        time,
      )
    },
    number: (value) => formatNumber(locale, value, {}),
    rating: (value) => formatNumber(locale, value, RATING),
    percent: (ratio) => formatNumber(locale, ratio, PERCENT),
    languageName: (code) => {
      try {
        const names = formatter(
          'language',
          locale,
          {},
          () => new Intl.DisplayNames(locale, { type: 'language' }),
        )
        return names.of(code) ?? code
      } catch {
        return code
      }
    },
  }
}

/** A message key with its parameters, for the callers that pick the key at run time. */
export type AnyMessage = (key: MessageKey, params?: Record<string, string | number>) => string

/** `t` without the per-key parameter typing, for messages whose placeholders are filled by markers. */
export function untyped(text: Text): AnyMessage {
  return text.t as unknown as AnyMessage
}
