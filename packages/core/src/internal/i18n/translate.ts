import { remembered } from '../base/remembered.ts'
import { CATALOG } from './catalog.ts'
import { resolveLocale } from './locale.ts'
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
  return getTextFormatter(locale).t(key, ...args)
}

/** A {@link Translator} for the supported language that best matches `locale`. */
export function createTranslator(locale: string): Translator {
  return getTextFormatter(locale).t
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
