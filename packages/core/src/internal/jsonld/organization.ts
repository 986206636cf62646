import type {
  LocalBusinessLeaf,
  OnlineBusinessLeaf,
  OnlineStoreLeaf,
  OrganizationLeaf,
  StoreLeaf,
  WithContext,
} from 'schema-dts'
import type { BrandRating } from '../../types/published.ts'
import { JsonLdInputError } from './json-ld-input-error.ts'
import type { ProductJsonLdOptions } from './product.ts'
import { checkCommonOptions, checkNoReviewMarkup } from './product-node.ts'
import {
  aggregateOf,
  DEFAULT_MAX_REVIEWS,
  DEFAULT_RATING_DECIMALS,
  type ReviewData,
  reviewInputs,
  reviewMarkup,
  type WithReviewMarkup,
} from './review-markup.ts'
import { createWarner } from './warnings.ts'

/** The value that opts in to self-serving review markup, spelled out so that nobody sets it by accident. */
export const SELF_SERVING_REVIEWS_OPT_IN = 'i-understand-google-ignores-this'

const ORGANIZATION_TYPES = [
  'Organization',
  'OnlineBusiness',
  'OnlineStore',
  'LocalBusiness',
  'Store',
] as const

/** schema.org types a brand or a shop can be marked up as. */
export type OrganizationType = (typeof ORGANIZATION_TYPES)[number]

/** An Organization (or subtype) node, its `@id` the given URL. */
export type OrganizationJsonLd = WithReviewMarkup<
  WithContext<OrganizationLeaf | OnlineBusinessLeaf | OnlineStoreLeaf | LocalBusinessLeaf | StoreLeaf>
> & { '@id': string }

/** Facts the page owns about the brand or shop (`name`, `logo`, `sameAs`, `address`…). */
export type OrganizationFacts = Omit<LocalBusinessLeaf, '@type' | '@id' | 'aggregateRating' | 'review'>

/** Rating statistics period of a {@link BrandRating}. */
export type RatingPeriod = 'one_year' | 'five_year'

/** Options of {@link buildOrganizationJsonLd}; `maxReviews`, `ratingDecimals` and `logger` are as the product builder's. */
export interface OrganizationJsonLdOptions
  extends Pick<ProductJsonLdOptions, 'maxReviews' | 'ratingDecimals' | 'logger'> {
  /** The organization's `@id`, an absolute URL (for example `https://shop.example/#organization`). */
  url: string
  /**
   * schema.org type of the node.
   * @default 'Organization'
   */
  type?: OrganizationType
  /** What the page says about the brand or shop. */
  organization?: OrganizationFacts
  /**
   * Brand or shop statistics (`BrandRating`). Allowed only with `selfServingReviews`: Google ignores
   * star markup that a business puts on its own Organization or LocalBusiness.
   */
  rating?: Pick<BrandRating, RatingPeriod>
  /**
   * Which statistics of `rating` become `aggregateRating`.
   * @default 'one_year'
   */
  period?: RatingPeriod
  /** Brand or shop reviews (`BrandReview`). Allowed only with `selfServingReviews`, as `rating`. */
  reviews?: readonly ReviewData[]
  /**
   * Set to `'i-understand-google-ignores-this'` to emit `aggregateRating` and `review` on the node
   * anyway (other consumers of the markup may read it); Google treats such reviews as self-serving and
   * shows no stars for them. A development warning says so.
   */
  selfServingReviews?: typeof SELF_SERVING_REVIEWS_OPT_IN
}

function reviewCountOf(stats: BrandRating[RatingPeriod]): number {
  return stats.count_5 + stats.count_4 + stats.count_3 + stats.count_2 + stats.count_1
}

/**
 * The brand's or a shop's Organization (or LocalBusiness…) node. It carries no star markup unless
 * `selfServingReviews` opts in: Google shows no stars for reviews a business collects about itself.
 * Null when there is nothing to say.
 *
 * @throws JsonLdInputError naming the option at fault, notably `rating` or `reviews` without the opt-in.
 */
export function buildOrganizationJsonLd(options: OrganizationJsonLdOptions): OrganizationJsonLd | null {
  checkCommonOptions(options)
  const { rating, reviews, period, selfServingReviews, organization } = options
  const type = options.type ?? 'Organization'
  if (!(ORGANIZATION_TYPES as readonly string[]).includes(type)) {
    throw new JsonLdInputError(
      'type',
      `must be one of ${ORGANIZATION_TYPES.join(', ')}, got ${JSON.stringify(type)}`,
    )
  }
  if (selfServingReviews !== undefined && selfServingReviews !== SELF_SERVING_REVIEWS_OPT_IN) {
    throw new JsonLdInputError('selfServingReviews', `must be '${SELF_SERVING_REVIEWS_OPT_IN}' or left out`)
  }
  if (selfServingReviews === undefined) {
    const field = rating !== undefined ? 'rating' : reviews !== undefined ? 'reviews' : undefined
    if (field !== undefined) {
      throw new JsonLdInputError(
        field,
        `star markup on a ${type} is self-serving and Google ignores it; leave ${field} out, or set ` +
          `selfServingReviews: '${SELF_SERVING_REVIEWS_OPT_IN}' to emit it anyway`,
      )
    }
  }
  if (period !== undefined && rating === undefined) {
    throw new JsonLdInputError('period', 'chooses statistics of rating, which is missing')
  }
  if (period !== undefined && period !== 'one_year' && period !== 'five_year') {
    throw new JsonLdInputError('period', `must be 'one_year' or 'five_year', got ${JSON.stringify(period)}`)
  }
  if (organization !== undefined) checkNoReviewMarkup(organization, 'organization')
  // The type forbids them, but data from elsewhere may carry them: the options decide both.
  const { '@id': id, '@type': _type, ...facts } = (organization ?? {}) as Record<string, unknown>
  if (id !== undefined && id !== options.url) {
    throw new JsonLdInputError(
      'organization.@id',
      `is ${JSON.stringify(id)} but url is ${JSON.stringify(options.url)}`,
    )
  }
  const warn = createWarner(options.logger)
  if (selfServingReviews !== undefined && (rating !== undefined || reviews !== undefined)) {
    warn(
      `review markup on a ${type} is emitted as asked, but Google treats it as self-serving and shows no stars`,
    )
  }
  const stats = rating?.[period ?? 'one_year']
  const markup = reviewMarkup(
    {
      aggregate: stats === undefined ? undefined : aggregateOf(stats.average, reviewCountOf(stats)),
      reviews: reviewInputs(reviews ?? []),
      summary: undefined,
      maxReviews: options.maxReviews ?? DEFAULT_MAX_REVIEWS,
      ratingDecimals: options.ratingDecimals ?? DEFAULT_RATING_DECIMALS,
    },
    warn,
  )
  if (Object.keys(facts).length === 0 && Object.keys(markup).length === 0) return null
  return { '@context': 'https://schema.org', '@type': type, '@id': options.url, ...facts, ...markup }
}
