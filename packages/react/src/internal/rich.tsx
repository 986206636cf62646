import type { MessageKey, TextFormatter } from '@verified-reviews/core/i18n'
import { messageParts } from '@verified-reviews/core/internal'
import { Fragment, type ReactNode } from 'react'

/**
 * A translated message with elements in place of some placeholders ("Originally posted on
 * {source}" with a link as `source`), cut by `messageParts`.
 */
export function richMessage(
  text: TextFormatter,
  key: MessageKey,
  slots: Record<string, ReactNode>,
  values: Record<string, string | number> = {},
): ReactNode {
  return messageParts(text, key, Object.keys(slots), values).map((part, i) =>
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed message never move
    'slot' in part ? <Fragment key={i}>{slots[part.slot]}</Fragment> : part.text,
  )
}
