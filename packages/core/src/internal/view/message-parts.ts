import type { TextFormatter } from '../i18n/text-formatter.ts'
import type { MessageKey } from '../i18n/types.ts'

// Private-use characters never occur in messages, so they mark where an element goes.
const MARK = '\uE000'

/** A piece of a message: text, or the name of a placeholder that an element fills. */
export type MessagePart = { text: string } | { slot: string }

/**
 * A translated message cut where elements go ("Originally posted on {source}", a link as `source`): it is
 * translated with markers in those placeholders, then split on them, so an element's own text never
 * passes through the message formatter. Text and slots alternate, starting with text.
 */
export function messageParts(
  text: TextFormatter,
  key: MessageKey,
  slots: readonly string[],
  values: Readonly<Record<string, string | number>> = {},
): MessagePart[] {
  const markers = Object.fromEntries(slots.map((name) => [name, `${MARK}${name}${MARK}`]))
  // The key is chosen at run time, so its parameters cannot be typed per key here.
  const translate = text.t as unknown as (key: MessageKey, params: Record<string, string | number>) => string
  return translate(key, { ...values, ...markers })
    .split(MARK)
    .map((part, i) => (i % 2 === 1 ? { slot: part } : { text: part }))
}
