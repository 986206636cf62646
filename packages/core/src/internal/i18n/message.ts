import { remembered } from '../base/remembered.ts'
import { messageNumberIn, pluralRules } from './formatters.ts'
import type { Locale } from './locale.ts'
import type { PluralMessage } from './types.ts'

// Split on it, a template is its text (even indexes) between the names of its placeholders (odd ones).
const PLACEHOLDER = /\{(\w+)\}/

/** Templates already split, at most 1,000 (then they start again): a page fills the same few many times. */
const split = new Map<string, readonly string[]>()

/**
 * A message of `locale` with its placeholders filled: numbers formatted for the language, and of a plural
 * message the form `params.count` calls for. A placeholder without a value stays as it is.
 */
export function fillMessage(
  locale: Locale,
  message: string | PluralMessage,
  params: Record<string, unknown>,
): string {
  let template: string
  if (typeof message === 'string') {
    template = message
  } else {
    const count = typeof params.count === 'number' ? params.count : 0
    template = message[pluralRules(locale).select(count)] ?? message.other
  }
  const parts = remembered(split, template, () => template.split(PLACEHOLDER), 1000)
  let filled = parts[0] as string
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string
    const value = params[name]
    // Numbers in messages carry at most one decimal, as a rating is shown.
    if (typeof value === 'number') filled += messageNumberIn(locale, value)
    else filled += typeof value === 'string' ? value : `{${name}}`
    filled += parts[i + 1] as string
  }
  return filled
}
