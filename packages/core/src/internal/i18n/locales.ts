import { LANGUAGES, type Language } from '../../types/published.ts'

// Apart from the catalogue, so code that picks or checks a language does not carry 13 languages of messages.

/** The languages of `translated_review`, which every user-visible string is translated into. */
export type Locale = Language

/** Every supported language, in alphabetical order. */
export const SUPPORTED_LOCALES: readonly Locale[] = Object.freeze([...LANGUAGES])

/** True for a language of {@link SUPPORTED_LOCALES}. */
export function isLocale(value: string): value is Locale {
  return (SUPPORTED_LOCALES as readonly string[]).includes(value)
}
