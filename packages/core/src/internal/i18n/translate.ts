import { remembered } from '../remembered.ts'
import { CATALOG } from './catalog.ts'
import { resolveLocale } from './locale.ts'
import { fillMessage } from './message.ts'
import { createTextFormatter, type TextFormatter } from './text-formatter.ts'
import type { MessageArgs, MessageKey, Messages, Translator } from './types.ts'

/** The messages of the supported language that best matches `locale` (see `resolveLocale`). */
export function getMessages(locale: string): Messages {
  return CATALOG[resolveLocale(locale)]
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
  return fillMessage(resolved, CATALOG[resolved][key], params as Record<string, unknown>)
}

/** A {@link Translator} for the supported language that best matches `locale`. */
export function createTranslator(locale: string): Translator {
  const resolved = resolveLocale(locale)
  const translate = <K extends MessageKey>(key: K, ...args: MessageArgs<K>): string =>
    t(resolved, key, ...args)
  return Object.assign(translate, { locale: resolved })
}

/**
 * Everything a review component says, in the supported language that best matches `locale` (`en` when
 * none is given), with every message of that language.
 */
export function getTextFormatter(locale?: string | null): TextFormatter {
  const resolved = resolveLocale(locale)
  // One per language: a page asks for it in every component and every review.
  return remembered(textFormatters, resolved, () => createTextFormatter(resolved, CATALOG[resolved]))
}

const textFormatters = new Map<string, TextFormatter>()
