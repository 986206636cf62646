/**
 * Every user-visible string of the review components, in the 13 languages of `translated_review`, with
 * plural forms through `Intl.PluralRules` and dates, numbers and language names through `Intl`.
 * Shared by the React and Astro components; holds no credentials, so it may reach the browser.
 *
 * @module
 */

export { fieldErrorIn } from './internal/i18n/field-errors.ts'
export {
  formatDate,
  formatNumber,
  formatPercent,
  formatRating,
  languageName,
} from './internal/i18n/format.ts'
export { DEFAULT_LOCALE, type Locale, resolveLocale, SUPPORTED_LOCALES } from './internal/i18n/locale.ts'
export type { TextFormatter } from './internal/i18n/text-formatter.ts'
export { createTranslator, getMessages, getTextFormatter, t } from './internal/i18n/translate.ts'
export type {
  MessageArgs,
  MessageKey,
  MessageParams,
  Messages,
  PluralMessage,
  Translator,
} from './internal/i18n/types.ts'
