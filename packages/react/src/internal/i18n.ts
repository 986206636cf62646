import { getMessages, resolveLocale } from '@verified-reviews/core/i18n'
import { createText, type Text } from './text.ts'

/** The texts of a component for its `locale` prop (resolved to a supported language, `en` by default). */
export function getText(locale: string | undefined): Text {
  const resolved = resolveLocale(locale ?? 'en')
  return createText(resolved, getMessages(resolved))
}
