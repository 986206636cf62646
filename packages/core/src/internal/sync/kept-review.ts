import {
  LANGUAGES,
  type Language,
  type Moderation,
  type ProductReview,
  type Translations,
} from '../../types/published.ts'
import { languageOf, shownTranslation } from '../display/translated-text.ts'

/**
 * The fields of a product review that the replica keeps, each for a reader that needs it:
 * - `review_id`: the store's key, list keys in React, the cursors' tie-break;
 * - `product_variation_id`: the product a review is grouped under;
 * - `publish_date`, `review_rate`: the views' orders and rate filters, the cursors, the sync's watermark,
 *   the JSON-LD `datePublished` and rating;
 * - `review_date`, `author_firstname`, `author_lastname`, `is_personal_data_disclosed`, `locale`,
 *   `review_content`, `is_verified`, `incentivization`, `medias`, `extras`: what a review component
 *   draws (author, date, stars, badges, text, criteria, images), the JSON-LD author and body;
 * - `syndicated_review`, `syndicated_review_source`, `syndicated_review_source_url`: the source line of a
 *   syndicated review, and the JSON-LD builders leaving such reviews out;
 * - `translated_review`, `moderations`: the translation a page shows, the merchant replies;
 * - `product_name`: the product's name that `verified-reviews inject` gives a page without one.
 *
 * Left out: `order_date`, `order_reference`, `order_id`, `product_ean`, `product_upc`, `product_jan`,
 * `product_sku`, `product_mpn` and `product_brand`, which no page shows.
 */
export const KEPT_FIELDS = [
  'review_id',
  'product_variation_id',
  'product_name',
  'publish_date',
  'review_date',
  'review_rate',
  'author_firstname',
  'author_lastname',
  'is_personal_data_disclosed',
  'locale',
  'review_content',
  'is_verified',
  'incentivization',
  'medias',
  'extras',
  'syndicated_review',
  'syndicated_review_source',
  'syndicated_review_source_url',
  'translated_review',
  'moderations',
] as const satisfies readonly (keyof ProductReview)[]

/** The fields of a merchant reply that the replica keeps: what the components draw of it (not its `origin`). */
export const KEPT_REPLY_FIELDS = [
  'comment',
  'date',
  'translated_comment',
] as const satisfies readonly (keyof Moderation)[]

/** A merchant reply as the replica keeps it. */
export type KeptReply = Pick<Moderation, 'comment' | 'date' | 'translated_comment'>

/**
 * A product review as the replica keeps it ({@link keptReview}): the {@link KEPT_FIELDS}, those that say
 * nothing (no image, no criterion, no reply, the source of a review that was not syndicated) left out.
 */
export type KeptReview = Pick<
  ProductReview,
  Exclude<
    (typeof KEPT_FIELDS)[number],
    | 'medias'
    | 'extras'
    | 'syndicated_review_source'
    | 'syndicated_review_source_url'
    | 'translated_review'
    | 'moderations'
  >
> &
  Partial<
    Pick<
      ProductReview,
      'medias' | 'extras' | 'syndicated_review_source' | 'syndicated_review_source_url' | 'translated_review'
    >
  > & { moderations?: KeptReply[] }

/**
 * What a store records of the form its reviews are kept in (`kept` in its checkpoint): a sync that
 * keeps another form rebuilds the store with a full walk.
 */
export interface KeptForm {
  /** {@link KEPT_FIELDS}, then the {@link KEPT_REPLY_FIELDS} as `moderations.<field>`. */
  fields: string[]
  /** The languages whose translations are kept, sorted. */
  languages: Language[]
}

/** The form {@link keptReview} keeps with `languages`. */
export function keptForm(languages: readonly Language[]): KeptForm {
  return {
    fields: [...KEPT_FIELDS, ...KEPT_REPLY_FIELDS.map((field) => `moderations.${field}`)],
    languages: [...new Set(languages)].sort(),
  }
}

function isObject<T>(value: T | null | undefined): value is T {
  return typeof value === 'object' && value !== null
}

/** Whether two kept forms are the same (`undefined`: reviews kept whole, as the API sent them). */
export function sameKeptForm(a: KeptForm | undefined, b: KeptForm | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  return a.fields.join() === b.fields.join() && a.languages.join() === b.languages.join()
}

/**
 * The translations of `original` (written in `source`) that a page in one of `languages` shows: the
 * rule of the components ({@link shownTranslation}), so that a translation never shown (into the
 * text's own language, equal to the original, blank) is not kept either.
 */
function shownTranslations(
  original: string,
  translations: Translations | undefined,
  source: string | undefined,
  languages: readonly Language[],
): Translations | undefined {
  let kept: Translations | undefined
  for (const language of languages) {
    const shown = shownTranslation(original, translations, source, language)
    if (shown === undefined) continue
    kept ??= {}
    kept[language] = shown
  }
  return kept
}

/**
 * A product review as the site's replica keeps it: the {@link KEPT_FIELDS} that the components, the
 * JSON-LD builders, the reviews endpoint's public review, the cursors and the sync read, with the
 * translations (of the review and of its replies) that a page in one of `languages` shows. A page in
 * any of those languages renders the same markup from it as from the API's review. Pure: the same
 * review gives the same kept review, which the sync compares with the one it holds.
 *
 * Left out besides: `origin` and `origin_type` of a reply; `medias`, `extras`, `moderations` and
 * `translated_review` when empty; `syndicated_review_source` and `_url` of a review that was not
 * syndicated (no component reads them then).
 *
 * @param languages The site's languages, among the 13 of `translated_review`; every one by default.
 */
export function keptReview(review: ProductReview, languages: readonly Language[] = LANGUAGES): KeptReview {
  const source = languageOf(review.locale)
  const kept: KeptReview = {
    review_id: review.review_id,
    product_variation_id: review.product_variation_id,
    product_name: review.product_name,
    publish_date: review.publish_date,
    review_date: review.review_date,
    review_rate: review.review_rate,
    author_firstname: review.author_firstname,
    author_lastname: review.author_lastname,
    is_personal_data_disclosed: review.is_personal_data_disclosed,
    locale: review.locale,
    review_content: review.review_content,
    is_verified: review.is_verified,
    incentivization: review.incentivization,
    syndicated_review: review.syndicated_review,
  }
  if (Array.isArray(review.medias) && review.medias.length > 0) kept.medias = review.medias
  if (typeof review.extras === 'object' && review.extras !== null && Object.keys(review.extras).length > 0)
    kept.extras = review.extras
  if (review.syndicated_review === true) {
    kept.syndicated_review_source = review.syndicated_review_source
    kept.syndicated_review_source_url = review.syndicated_review_source_url
  }
  const translated = shownTranslations(review.review_content, review.translated_review, source, languages)
  if (translated !== undefined) kept.translated_review = translated
  if (Array.isArray(review.moderations) && review.moderations.length > 0) {
    // A reply that is no object (which the components skip) is not kept either.
    kept.moderations = review.moderations.filter(isObject).map((reply) => {
      const kept: KeptReply = { comment: reply.comment, date: reply.date }
      const comments = shownTranslations(reply.comment, reply.translated_comment, source, languages)
      if (comments !== undefined) kept.translated_comment = comments
      return kept
    })
  }
  return kept
}
