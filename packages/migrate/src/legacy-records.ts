import type {
  Incentivization,
  LegacyMedia,
  LegacyModeration,
  LegacyProductRating,
  LegacyProductRatingsResponse,
  LegacyProductReview,
  LegacyProductReviewsResponse,
  Media,
  Moderation,
  ProductRating,
  ProductReview,
} from '@verified-reviews/core'
import type { MigrationNote } from './result.ts'

/**
 * What {@link fromLegacyReview} cannot carry over: legacy fields without a Published counterpart, and
 * Published fields the legacy API does not have, filled with the neutral value named here.
 */
export const LEGACY_REVIEW_NOTES: readonly MigrationNote[] = [
  { field: 'category', reason: 'dropped: Published reviews carry no product category' },
  { field: 'product_ids.gtin_isbn', reason: 'dropped: Published reviews carry no ISBN' },
  { field: 'helping_votes', reason: 'dropped: Published reviews carry no helpfulness votes' },
  { field: 'hide_exchange', reason: 'dropped: no Published counterpart' },
  {
    field: 'anonymised_data, pseudonymised_data',
    reason: 'folded into is_personal_data_disclosed, false when either is set',
  },
  {
    field: 'compensated_review, rewarded_review, gifted_review',
    reason:
      'folded into incentivization: gifted, or compensated (a reward is compensation); with no flag set it is ' +
      'none, since the legacy API cannot tell none from spontaneous',
  },
  {
    field: 'medias',
    reason:
      'data.small, data.medium and data.large become the size variants; a media with a single URL uses it ' +
      'for every size; a media without any URL is dropped',
  },
  {
    field: 'is_verified',
    reason:
      'filled with false: the legacy API does not say, and a review must not claim a check it may not have had',
  },
  {
    field: 'order_reference, order_id',
    reason: 'filled with an empty string: the legacy API does not give them',
  },
  { field: 'product_name', reason: 'filled with an empty string: the legacy API does not give it' },
  { field: 'translated_review', reason: 'filled with {}: the legacy API has no translations' },
  { field: 'extras', reason: 'filled with {}: the legacy API has no extra criteria' },
  {
    field: 'moderations[].origin_type, moderations[].translated_comment',
    reason: 'origin_type filled with moderator (the only value the spec shows); translated_comment left out',
  },
]

/**
 * A legacy review in the Published `ProductReview` shape: `id`→`review_id`, `rate`→`review_rate`,
 * `review`→`review_content`, `product_ref`→`product_variation_id`, `firstname`/`lastname`→
 * `author_firstname`/`author_lastname`, `language`→`locale` (both `fr_FR`), `brand`→`product_brand`,
 * `product_ids`→`product_ean`/`_upc`/`_jan`/`_sku`/`_mpn`, the incentive flags→`incentivization`,
 * `syndicated_*` (null→empty string), `medias`→size variants, `moderations`. What cannot be carried
 * over is listed in {@link LEGACY_REVIEW_NOTES}.
 */
export function fromLegacyReview(review: LegacyProductReview): ProductReview {
  return {
    review_id: review.id,
    author_firstname: review.firstname,
    author_lastname: review.lastname,
    is_personal_data_disclosed: !review.anonymised_data && !review.pseudonymised_data,
    locale: review.language,
    review_date: review.review_date,
    publish_date: review.publish_date,
    order_date: review.order_date,
    review_content: review.review,
    review_rate: review.rate,
    order_reference: '',
    order_id: '',
    product_variation_id: review.product_ref,
    product_ean: review.product_ids.gtin_ean,
    product_upc: review.product_ids.gtin_upc,
    product_jan: review.product_ids.gtin_jan,
    product_sku: review.product_ids.sku,
    product_mpn: review.product_ids.mpn,
    product_brand: review.brand,
    product_name: '',
    is_verified: false,
    medias: review.medias.flatMap(fromLegacyMedia),
    incentivization: incentivizationOf(review),
    syndicated_review: review.syndicated_review,
    syndicated_review_source: review.syndicated_review_source ?? '',
    syndicated_review_source_url: review.syndicated_review_source_url ?? '',
    translated_review: {},
    moderations: review.moderations.map(fromOldModeration),
    extras: {},
  }
}

/**
 * The legacy answer `{ data: { <ref>: [...] | null } }` as the flat list `GET /products/reviews`
 * answers: the references in answer order, each one's reviews in their order; a `null` reference
 * contributes nothing. Which references were asked for is lost; keep the request's `ref` if needed.
 */
export function fromLegacyReviewsResponse(response: LegacyProductReviewsResponse): ProductReview[] {
  return Object.values(response.data).flatMap((reviews) => (reviews ?? []).map(fromLegacyReview))
}

/**
 * A legacy rating in the `ProductRating` shape (`nb_*`→`count_*`, `nb_total`→`count_total`) for the
 * product reference it was keyed by. The legacy API gives no EAN and no criteria: `product_ean` is an
 * empty string and `extras` is empty.
 */
export function fromLegacyRating(ref: string, rating: LegacyProductRating): ProductRating {
  return {
    product_variation_id: ref,
    product_ean: '',
    average: rating.average,
    count_total: rating.nb_total,
    count_5: rating.nb_5,
    count_4: rating.nb_4,
    count_3: rating.nb_3,
    count_2: rating.nb_2,
    count_1: rating.nb_1,
    extras: [],
  }
}

/**
 * The legacy answer `{ data: { <ref>: rating | null } }` as the list `GET /products/ratings` answers:
 * one entry per reference that has a rating, in answer order; `null` references are left out, as
 * products without reviews are in the Published answer.
 */
export function fromLegacyRatingsResponse(response: LegacyProductRatingsResponse): ProductRating[] {
  return Object.entries(response.data).flatMap(([ref, rating]) =>
    rating === null ? [] : [fromLegacyRating(ref, rating)],
  )
}

/** A legacy or Genesis reply (`date`, `origin`, `comment`) as a Published moderation by a moderator. */
export function fromOldModeration(moderation: LegacyModeration): Moderation {
  return {
    comment: moderation.comment,
    date: moderation.date,
    origin: moderation.origin,
    origin_type: 'moderator',
  }
}

function incentivizationOf(review: LegacyProductReview): Incentivization {
  if (review.gifted_review) return 'gifted'
  if (review.compensated_review || review.rewarded_review) return 'compensated'
  return 'none'
}

function fromLegacyMedia(media: LegacyMedia): Media[] {
  const url = (name: string): string | undefined => {
    const value = media.data[name]
    return typeof value === 'string' && value !== '' ? value : undefined
  }
  const single = url('url') ?? url('src') ?? url('link')
  const small = url('small') ?? url('thumbnail') ?? single
  const medium = url('medium') ?? single
  const large = url('large') ?? url('original') ?? single
  const any = large ?? medium ?? small
  if (any === undefined) return []
  return [
    {
      type: (media.type || media.data.type).toUpperCase(),
      small: small ?? any,
      medium: medium ?? any,
      large: large ?? any,
    },
  ]
}
