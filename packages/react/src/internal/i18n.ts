import { getMessages, type Messages, resolveLocale } from '@verified-reviews/core/i18n'
import { ISLAND_MESSAGE_KEYS } from './island-messages.ts'

/** The messages the island shows, in the language that best matches `locale`. */
export function islandMessages(locale: string | undefined): Partial<Messages> {
  const messages = getMessages(resolveLocale(locale ?? 'en'))
  return Object.fromEntries(ISLAND_MESSAGE_KEYS.map((key) => [key, messages[key]]))
}
