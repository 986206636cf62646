import { getMessages, resolveLocale } from '@verified-reviews/core/i18n'
import { ISLAND_MESSAGE_KEYS } from './island-messages.ts'
import { createText, type Text, type TextMessages } from './text.ts'

/** The texts of a component for its `locale` prop (resolved to a supported language, `en` by default). */
export function getText(locale: string | undefined): Text {
  const resolved = resolveLocale(locale ?? 'en')
  return createText(resolved, getMessages(resolved))
}

/** The messages the island shows, in the language that best matches `locale`. */
export function islandMessages(locale: string | undefined): TextMessages {
  const messages = getMessages(resolveLocale(locale ?? 'en'))
  return Object.fromEntries(ISLAND_MESSAGE_KEYS.map((key) => [key, messages[key]]))
}
