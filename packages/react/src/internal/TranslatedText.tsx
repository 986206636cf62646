import type { Translations } from '@verified-reviews/core'
import type { TextFormatter } from '@verified-reviews/core/i18n'
import { translatedText } from '@verified-reviews/core/internal'

export interface TranslatedTextProps {
  /** BEM block of the parent: classes are `${block}__content`, `__translation-note`, `__original` (whose text is its `<p>`). */
  block: string
  original: string
  translations: Translations | undefined
  /** The review's `locale` as the API sent it. */
  sourceLocale: string
  text: TextFormatter
}

/**
 * The text in the page's language when a translation exists and the text was written in another
 * language, marked as translated, with the original one click away in `<details>`; else the original.
 */
export function TranslatedText({ block, original, translations, sourceLocale, text }: TranslatedTextProps) {
  const shown = translatedText(original, translations, sourceLocale, text)
  const content =
    shown.content === undefined ? null : (
      <p className={`${block}__content`} lang={shown.lang}>
        {shown.content}
      </p>
    )
  // A text shown as written is its paragraph alone (no fragment of empty slots in the RSC payload).
  if (shown.note === undefined) return content
  return (
    <>
      <p className={`${block}__translation-note`}>{shown.note}</p>
      {content}
      {shown.withOriginal && (
        <details className={`${block}__original`}>
          <summary>{text.t('showOriginal')}</summary>
          <p lang={shown.source}>{original}</p>
        </details>
      )}
    </>
  )
}
