import type { MessageKey } from '@verified-reviews/core/i18n'
import { Fragment, type ReactNode } from 'react'
import { type Text, untyped } from './text.ts'

// Private-use characters never occur in messages, so they mark where an element goes.
const MARK = '\uE000'

/**
 * A translated message with elements in place of some placeholders ("Originally posted on
 * {source}" with a link as `source`). The message is translated with markers, then split on them,
 * so the element's own text never passes through the message formatter.
 */
export function richMessage(
  text: Text,
  key: MessageKey,
  slots: Record<string, ReactNode>,
  values: Record<string, string | number> = {},
): ReactNode {
  const markers = Object.fromEntries(Object.keys(slots).map((name) => [name, `${MARK}${name}${MARK}`]))
  const parts = untyped(text)(key, { ...values, ...markers }).split(MARK)
  return parts.map((part, i) =>
    // Odd parts are slot names: the split alternates text, name, text.
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed message never move
    i % 2 === 1 ? <Fragment key={i}>{slots[part]}</Fragment> : part,
  )
}
