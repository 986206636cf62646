import type { AggregateRatingLeaf, Organization, Person, Rating, ReviewLeaf } from 'schema-dts'
import type { Translations } from '../../types/published.ts'
import type { ReviewAuthor } from '../display/author-name.ts'
import { reviewAuthorName } from '../display/author-name.ts'
import { newestFirst } from '../display/product-group.ts'
import { languageOf, shownTranslation } from '../display/translated-text.ts'
import { resolveLocale } from '../i18n/locale.ts'

/** An aggregate rating before the review-snippet rules are applied. */
export interface AggregateInput {
  ratingValue: number
  reviewCount: number
  bestRating: number
  worstRating: number
}

/** The AI summary of the reviews, authored by the organization. */
export interface SummaryInput {
  authorName: string
  datePublished: string
  reviewBody: string
}

/** One consumer review before the review-snippet rules are applied. */
export interface ReviewInput extends SummaryInput, Omit<AggregateInput, 'reviewCount'> {
  /** Language of `reviewBody` (a BCP 47 language subtag), when known. */
  inLanguage?: string | undefined
}

/** Bounds of a review rate: the API rates from 1 to 5 stars. */
export const BEST_RATING = 5
export const WORST_RATING = 1

/** The structured-datas operation's default `reviews_limit`, so both sources mark up as many reviews. */
export const DEFAULT_MAX_REVIEWS = 5

/** One decimal place: what the star rating shows, and Google asks markup to match what the page shows. */
export const DEFAULT_RATING_DECIMALS = 1

/** An aggregate of `count` reviews averaging `average` on the API's 1 to 5 scale. */
export function aggregateOf(average: number, count: number): AggregateInput {
  return { ratingValue: average, reviewCount: count, bestRating: BEST_RATING, worstRating: WORST_RATING }
}

/** Google: an author name must be shorter than 100 characters. */
const MAX_AUTHOR_NAME_LENGTH = 99

/** `value` rounded half away from zero to `decimals` places, without binary artefacts such as 4.550000001. */
export function roundRating(value: number, decimals: number): number {
  return Number(`${Math.round(Number(`${value}e${decimals}`))}e-${decimals}`)
}

function dateProblem(value: string): string | undefined {
  return value.trim() !== '' && !Number.isNaN(Date.parse(value))
    ? undefined
    : `its datePublished ${JSON.stringify(value)} is not a date`
}

function aggregateRatingNode(
  input: AggregateInput,
  decimals: number,
  warn: (message: string) => void,
): AggregateRatingLeaf | undefined {
  const { ratingValue, reviewCount, bestRating, worstRating } = input
  // No reviews is an ordinary state, not a fault: the aggregate is simply left out.
  if (reviewCount === 0) return undefined
  if (!Number.isInteger(reviewCount) || reviewCount < 0) {
    warn(`aggregateRating left out: reviewCount ${reviewCount} is not a whole number of reviews`)
    return undefined
  }
  if (!(Number.isFinite(ratingValue) && ratingValue >= worstRating && ratingValue <= bestRating)) {
    warn(`aggregateRating left out: ratingValue ${ratingValue} is outside ${worstRating} to ${bestRating}`)
    return undefined
  }
  return {
    '@type': 'AggregateRating',
    ratingValue: roundRating(ratingValue, decimals),
    reviewCount,
    bestRating,
    worstRating,
  }
}

function authorProblem(name: string): string | undefined {
  if (name.trim() === '') return 'it has no author name'
  if (name.length > MAX_AUTHOR_NAME_LENGTH) return `its author name is ${name.length} characters long`
  return undefined
}

function reviewNode(input: ReviewInput, warn: (message: string) => void): ReviewLeaf | undefined {
  const problem =
    authorProblem(input.authorName) ??
    dateProblem(input.datePublished) ??
    (Number.isFinite(input.ratingValue) &&
    input.ratingValue >= input.worstRating &&
    input.ratingValue <= input.bestRating
      ? undefined
      : `its rating ${input.ratingValue} is outside ${input.worstRating} to ${input.bestRating}`)
  if (problem !== undefined) {
    warn(`a review was left out of the JSON-LD because ${problem} (Google rejects such a review)`)
    return undefined
  }
  const author: Person = { '@type': 'Person', name: input.authorName }
  const reviewRating: Rating = {
    '@type': 'Rating',
    ratingValue: input.ratingValue,
    bestRating: input.bestRating,
    worstRating: input.worstRating,
  }
  return {
    '@type': 'Review',
    author,
    datePublished: input.datePublished,
    ...(input.reviewBody === ''
      ? {}
      : {
          reviewBody: input.reviewBody,
          ...(input.inLanguage === undefined ? {} : { inLanguage: input.inLanguage }),
        }),
    reviewRating,
  }
}

function summaryNode(input: SummaryInput, warn: (message: string) => void): ReviewLeaf | undefined {
  const problem =
    authorProblem(input.authorName) ??
    dateProblem(input.datePublished) ??
    (input.reviewBody.trim() === '' ? 'it is empty' : undefined)
  if (problem !== undefined) {
    warn(`the review summary was left out of the JSON-LD because ${problem}`)
    return undefined
  }
  const author: Organization = { '@type': 'Organization', name: input.authorName }
  // Google accepts a review without a rating when it has an author and a date, which the summary has.
  return { '@type': 'Review', author, datePublished: input.datePublished, reviewBody: input.reviewBody }
}

/** The review markup of a node: `aggregateRating` and `review` items that pass Google's rules. */
export interface ReviewMarkup {
  aggregateRating?: AggregateRatingLeaf
  review?: ReviewLeaf[]
}

/** What review markup is made of, whichever source it came from. */
export interface ReviewMarkupInput {
  aggregate: AggregateInput | undefined
  /** Newest first. */
  reviews: readonly ReviewInput[]
  summary: SummaryInput | undefined
  maxReviews: number
  ratingDecimals: number
}

/**
 * Review markup following Google's review-snippet rules: no aggregate of zero reviews, no review without
 * an author name, a rating or a date; `itemReviewed` is left to nesting. Empty when nothing passes.
 */
export function reviewMarkup(input: ReviewMarkupInput, warn: (message: string) => void): ReviewMarkup {
  const aggregateRating =
    input.aggregate === undefined
      ? undefined
      : aggregateRatingNode(input.aggregate, input.ratingDecimals, warn)
  const review: ReviewLeaf[] = []
  for (const item of input.reviews) {
    if (review.length === input.maxReviews) break
    const node = reviewNode(item, warn)
    if (node !== undefined) review.push(node)
  }
  const summary = input.summary === undefined ? undefined : summaryNode(input.summary, warn)
  if (summary !== undefined) review.push(summary)
  return {
    ...(aggregateRating === undefined ? {} : { aggregateRating }),
    ...(review.length === 0 ? {} : { review }),
  }
}

/** The fields of a product or brand review that the markup uses. */
export interface ReviewData extends ReviewAuthor {
  /** ISO 8601 date-time: becomes `datePublished`. */
  publish_date: string
  /** The original text, as the consumer wrote it: becomes `reviewBody` unless a translation is shown. */
  review_content: string
  review_rate: number
  /** The review's locale (`fr_FR`): its language becomes the `inLanguage` of the original text. */
  locale?: string | undefined
  /** Translations of `review_content` by language: the one the page shows is marked up instead. */
  translated_review?: Translations | undefined
  /** Whether the review was collected on another site and shared here: left out of the markup by default. */
  syndicated_review?: boolean | undefined
}

/**
 * API reviews as markup input, newest published first, as the structured-datas operation orders them:
 * syndicated reviews left out unless `syndicatedReviews`, and each body the text a page in `locale`
 * shows (the translation when the review components show one, else the original), with its language;
 * without `locale`, every original.
 */
export function reviewInputs(
  reviews: readonly ReviewData[],
  options: { locale?: string | undefined; syndicatedReviews?: boolean | undefined } = {},
): ReviewInput[] {
  const target = options.locale === undefined ? undefined : resolveLocale(options.locale)
  const shown = reviews.filter(
    (review) => options.syndicatedReviews === true || review.syndicated_review !== true,
  )
  return newestFirst([shown]).map((review) => {
    const source = languageOf(review.locale)
    const translated =
      target === undefined
        ? undefined
        : shownTranslation(review.review_content, review.translated_review, source, target)
    return {
      authorName: reviewAuthorName(review),
      datePublished: review.publish_date,
      reviewBody: translated ?? review.review_content,
      inLanguage: translated === undefined ? source : target,
      ratingValue: review.review_rate,
      bestRating: BEST_RATING,
      worstRating: WORST_RATING,
    }
  })
}

/** A schema.org node type whose review members are the markup the builders make. */
export type WithReviewMarkup<T> = T extends unknown
  ? Omit<T, 'aggregateRating' | 'review'> & ReviewMarkup
  : never
