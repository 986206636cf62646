import { CATALOG, type Locale } from './catalog.ts'
import { formatNumber, pluralRules } from './format.ts'
import { resolveLocale } from './locale.ts'
import type { MessageArgs, MessageKey, Messages, PluralMessage } from './types.ts'

/** The messages of the supported language that best matches `locale` (see `resolveLocale`). */
export function getMessages(locale: string): Messages {
  return CATALOG[resolveLocale(locale)]
}

const PLACEHOLDER = /\{(\w+)\}/g

/** Numbers in messages carry at most one decimal, as a rating is shown. */
const NUMBER_OPTIONS: Intl.NumberFormatOptions = { maximumFractionDigits: 1 }

function render(locale: Locale, message: string | PluralMessage, params: Record<string, unknown>): string {
  let template: string
  if (typeof message === 'string') {
    template = message
  } else {
    const count = typeof params.count === 'number' ? params.count : 0
    template = message[pluralRules(locale).select(count)] ?? message.other
  }
  return template.replace(PLACEHOLDER, (placeholder, name: string) => {
    const value = params[name]
    if (typeof value === 'number') return formatNumber(locale, value, NUMBER_OPTIONS)
    return typeof value === 'string' ? value : placeholder
  })
}

/**
 * A user-visible message in the supported language that best matches `locale`, its placeholders filled
 * in: numbers are formatted for the language, and a plural message takes the form `count` calls for.
 *
 * @example t('fr', 'ratingLabel', { rating: 4.6, count: 128 }) // '4,6 sur 5, 128 avis'
 */
export function t<K extends MessageKey>(locale: string, key: K, ...args: MessageArgs<K>): string {
  const resolved = resolveLocale(locale)
  const [params = {}] = args
  return render(resolved, CATALOG[resolved][key], params as Record<string, unknown>)
}

/** {@link t} bound to one language. */
export interface Translator {
  <K extends MessageKey>(key: K, ...args: MessageArgs<K>): string
  /** The supported language the translator speaks. */
  readonly locale: Locale
}

/** A {@link Translator} for the supported language that best matches `locale`. */
export function createTranslator(locale: string): Translator {
  const resolved = resolveLocale(locale)
  const translate = <K extends MessageKey>(key: K, ...args: MessageArgs<K>): string =>
    t(resolved, key, ...args)
  return Object.assign(translate, { locale: resolved })
}
