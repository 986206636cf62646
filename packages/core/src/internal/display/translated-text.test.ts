import { describe, expect, it } from 'vitest'
import { getTextFormatter } from '../i18n/translate.ts'
import { languageOf, translatedText } from './translated-text.ts'

const fr = getTextFormatter('fr')

describe('languageOf', () => {
  it('reads the language of a locale in any case and separator', () => {
    expect(languageOf('fr_FR')).toBe('fr')
    expect(languageOf(' PT-br ')).toBe('pt')
  })

  it('gives undefined for what is not a locale', () => {
    expect(languageOf('<b>')).toBeUndefined()
    expect(languageOf(null)).toBeUndefined()
  })
})

describe('translatedText', () => {
  it('shows the translation of a text written in another language, saying from which', () => {
    expect(translatedText('Great', { fr: 'Super' }, 'en_GB', fr)).toEqual({
      original: 'Great',
      source: 'en',
      target: 'fr',
      translated: 'Super',
      note: fr.t('translatedFrom', { language: fr.languageName('en') }),
      lang: undefined,
      content: 'Super',
      withOriginal: true,
    })
  })

  it('says only that it is translated when the original language is unknown', () => {
    expect(translatedText('Great', { fr: 'Super' }, '', fr).note).toBe(fr.t('translated'))
  })

  it('keeps the original when it is in the page language, or the translation is blank or the same', () => {
    expect(translatedText('Super', { fr: 'Génial' }, 'fr_FR', fr).translated).toBeUndefined()
    expect(translatedText('Great', { fr: ' ' }, 'en', fr).translated).toBeUndefined()
    expect(translatedText('Great', { fr: 'Great' }, 'en', fr).translated).toBeUndefined()
    expect(translatedText('Great', undefined, 'en', fr)).toEqual({
      original: 'Great',
      source: 'en',
      target: 'fr',
      translated: undefined,
      note: undefined,
      lang: 'en',
      content: 'Great',
      withOriginal: false,
    })
  })

  it('shows no text for a blank original, and a translation of one without the original', () => {
    expect(translatedText('  ', undefined, 'en', fr)).toMatchObject({
      content: undefined,
      withOriginal: false,
    })
    expect(translatedText(' ', { fr: 'Super' }, 'en', fr)).toMatchObject({
      content: 'Super',
      withOriginal: false,
    })
  })

  it("gives a lang only to an original shown in another language than the page's", () => {
    expect(translatedText('Super', { fr: 'Génial' }, 'fr_FR', fr).lang).toBeUndefined()
    expect(translatedText('Great', { fr: 'Super' }, 'en', fr).lang).toBeUndefined()
    expect(translatedText('Great', {}, 'en', fr).lang).toBe('en')
    expect(translatedText('Great', {}, '', fr).lang).toBeUndefined()
  })
})
