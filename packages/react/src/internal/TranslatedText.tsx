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
  const { source, translated, note, lang } = translatedText(original, translations, sourceLocale, text)
  if (translated === undefined) {
    if (original.trim() === '') return null
    return (
      <p className={`${block}__content`} lang={lang}>
        {original}
      </p>
    )
  }
  return (
    <>
      <p className={`${block}__translation-note`}>{note}</p>
      <p className={`${block}__content`}>{translated}</p>
      {original.trim() !== '' && (
        <details className={`${block}__original`}>
          <summary>{text.t('showOriginal')}</summary>
          <p lang={source}>{original}</p>
        </details>
      )}
    </>
  )
}
