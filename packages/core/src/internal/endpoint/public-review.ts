import type { ProductReview, Translations } from '../../types/published.ts'
import type { Locale } from '../i18n/locales.ts'

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

function only(translations: Translations | undefined, locale: Locale): Translations {
  const text = translations?.[locale]
  return text === undefined ? {} : { [locale]: text }
}

/**
 * A review as a public endpoint sends it: what the review components show, and nothing more. The
 * translations keep the page's language alone (a review carries all 13, about 12 times the text
 * shown), the last name its initial (the components show `Marie D.`), and the order reference and
 * id are emptied (they identify a customer's order and are never shown).
 */
export function publicReview(review: ProductReview, locale: Locale): ProductReview {
  const last = review.author_lastname.trim()
  const initial =
    review.is_personal_data_disclosed && last !== ''
      ? (graphemes.segment(last)[Symbol.iterator]().next().value?.segment ?? '')
      : ''
  return {
    ...review,
    author_lastname: initial,
    order_reference: '',
    order_id: '',
    translated_review: only(review.translated_review, locale),
    moderations: review.moderations.map((moderation) =>
      moderation.translated_comment === undefined
        ? moderation
        : { ...moderation, translated_comment: only(moderation.translated_comment, locale) },
    ),
  }
}
