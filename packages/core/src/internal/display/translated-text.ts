import type { Translations } from '../../types/published.ts'
import type { Locale } from '../i18n/locale.ts'
import type { TextFormatter } from '../i18n/text-formatter.ts'

/** The language subtag of a review's `locale` ("fr_FR", "fr-FR", "FR" → "fr"), or `undefined`. */
export function languageOf(locale: string | null | undefined): string | undefined {
  if (typeof locale !== 'string') return undefined
  const match = /^([a-z]{2,3})(?:[-_][a-z0-9]{2,8})*$/i.exec(locale.trim())
  return match?.[1]?.toLowerCase()
}

/** How a text from a review is shown: translated for the page, or as written. */
export interface TranslatedText {
  /** The text as written. */
  original: string
  /** The language the text was written in (`lang` of the original), when the API says it. */
  source: string | undefined
  /** The page's language (`lang` of the translation). */
  target: Locale
  /** The translation shown instead of the original, when there is one to show. */
  translated: string | undefined
  /** What the note above a translation says: "Translated from {language}", or "Translated". */
  note: string | undefined
  /**
   * The `lang` of the text shown: the original's language when it is shown and is not the page's;
   * `undefined` for text in the page's language (a translation, or a review written in it), which takes
   * the page's language as the components' other texts do, and for a language the API does not say.
   */
  lang: string | undefined
  /** The text of the `__content` paragraph: the translation, else the original; undefined when blank. */
  content: string | undefined
  /** Whether the original is shown too, in `<details>`: under a translation, when it is not blank. */
  withOriginal: boolean
}

/**
 * The translation a page in `target` shows instead of `original` (written in `source`): the API's
 * translation into `target`, when it has one that differs from the original and the text was written
 * in another language; else undefined (the original is shown). The JSON-LD builders mark up the same
 * text, so that the markup says what the visitor reads.
 */
export function shownTranslation(
  original: string,
  translations: Translations | undefined,
  source: string | undefined,
  target: Locale,
): string | undefined {
  const candidate = translations?.[target]
  return typeof candidate === 'string' &&
    candidate.trim() !== '' &&
    candidate !== original &&
    (source === undefined || source !== target)
    ? candidate
    : undefined
}

/**
 * The text in the page's language when the API has a translation and the text was written in another
 * language; else the original (`translated` undefined).
 */
export function translatedText(
  original: string,
  translations: Translations | undefined,
  sourceLocale: string,
  text: TextFormatter,
): TranslatedText {
  const source = languageOf(sourceLocale)
  const target = text.locale
  const translated = shownTranslation(original, translations, source, target)
  const note =
    translated === undefined
      ? undefined
      : source === undefined
        ? text.t('translated')
        : text.t('translatedFrom', { language: text.languageName(source) })
  const lang = translated !== undefined || source === target ? undefined : source
  const blank = original.trim() === ''
  const content = translated ?? (blank ? undefined : original)
  return {
    original,
    source,
    target,
    translated,
    note,
    lang,
    content,
    withOriginal: translated !== undefined && !blank,
  }
}
