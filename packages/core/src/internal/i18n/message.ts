import { messageNumberIn, pluralRules } from './formatters.ts'
import type { Locale } from './locale.ts'
import type { PluralMessage } from './types.ts'

const PLACEHOLDER = /\{(\w+)\}/g

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
  return template.replace(PLACEHOLDER, (placeholder, name: string) => {
    const value = params[name]
    // Numbers in messages carry at most one decimal, as a rating is shown.
    if (typeof value === 'number') return messageNumberIn(locale, value)
    return typeof value === 'string' ? value : placeholder
  })
}
