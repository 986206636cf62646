import type {
  BrandReview,
  Incentivization,
  Media,
  Moderation,
  ProductReview,
  ReviewExtra,
} from '../../types/published.ts'
import { reviewAuthorName } from '../display/author-name.ts'
import { webUrl } from '../display/url.ts'
import type { TextFormatter } from '../i18n/text-formatter.ts'
import { starRating } from './stars.ts'

/**
 * The fields of a review that a review component shows. A product review (`GET /products/reviews`) and a
 * brand review (`GET /brands/reviews`) both fit as they are; the fields only product reviews carry are
 * optional.
 */
export type ReviewData = Pick<
  BrandReview,
  | 'review_id'
  | 'author_firstname'
  | 'author_lastname'
  | 'is_personal_data_disclosed'
  | 'locale'
  | 'review_date'
  | 'review_content'
  | 'review_rate'
  | 'is_verified'
  | 'incentivization'
> &
  Partial<Pick<BrandReview, 'extras'>> &
  Partial<
    Pick<
      ProductReview,
      | 'medias'
      | 'syndicated_review'
      | 'syndicated_review_source'
      | 'syndicated_review_source_url'
      | 'translated_review'
    >
  > & {
    /** Merchant replies; those of product reviews carry `translated_comment`. */
    moderations?: ReadonlyArray<ReviewReply>
  }

/** The fields of a merchant reply that a review component shows. */
export type ReviewReply = Pick<Moderation, 'comment' | 'date' | 'translated_comment'>

/** Who collects and moderates the reviews (in "How reviews are checked"): a brand name in every language. */
export const REVIEWS_PROVIDER = 'Verified Reviews'

/** The name a review is shown under: its JSON-LD author's, so markup matches the page; else "Anonymous". */
export function reviewAuthor(review: ReviewData, text: TextFormatter): string {
  return reviewAuthorName(review) || text.t('anonymousAuthor')
}

/** The incentive a review must disclose, if any. */
export function reviewDisclosure(
  incentivization: Incentivization | null | undefined,
): 'gifted' | 'compensated' | undefined {
  return incentivization === 'gifted' || incentivization === 'compensated' ? incentivization : undefined
}

/** A quality criterion as a review shows it: its name and its value as text. */
export interface ReviewCriterion {
  /** The criterion's code, the key of `extras`. */
  code: string
  /** Its name: `display_name`, else `label`. */
  name: string
  /**
   * Its value: a score (`I1`) as its rating in words ("5.0 out of 5", the accessible name a star rating of
   * it would have), a text (`S`) as written.
   */
  value: string
}

/**
 * The quality criteria a review shows, as name and text: scores (`I1`) and non-blank texts (`S`) that
 * have a name; other types, which the spec does not show, are left out. A score is text, not stars: a
 * review holds several, and a star rating for each would weigh more than the review's own text (issue 29).
 */
export function reviewCriteria(
  extras: Readonly<Record<string, ReviewExtra>> | undefined,
  text: TextFormatter,
): ReviewCriterion[] {
  return Object.entries(extras ?? {}).flatMap(([code, extra]) => {
    if (extra === null || typeof extra !== 'object') return []
    const name = extra.display_name || extra.label
    if (!name) return []
    if (extra.type === 'I1' && Number.isFinite(extra.value))
      return [{ code, name, value: starRating(extra.value, undefined, text).label }]
    if (extra.type === 'S' && typeof extra.value === 'string' && extra.value.trim() !== '')
      return [{ code, name, value: extra.value }]
    return []
  })
}

/** Pixel widths assumed for the `small`, `medium` and `large` variants of review images (`srcset`). */
export interface MediaWidths {
  small: number
  medium: number
  large: number
}

/** Widths assumed when none are given: the API does not state the variants' sizes. */
export const DEFAULT_MEDIA_WIDTHS: Readonly<MediaWidths> = Object.freeze({
  small: 200,
  medium: 600,
  large: 1200,
})

/** Edge of the square image thumbnails, in CSS pixels, when none is given. */
export const DEFAULT_THUMBNAIL_SIZE = 96

/** One image of a review, as a thumbnail linked to its largest variant. */
export interface ReviewImage {
  /** The largest variant, the link's target. */
  href: string
  /** The smallest variant, the thumbnail's `src`. */
  src: string
  /**
   * The variants a thumbnail can use, with their assumed widths: from the smallest up to the first at least
   * {@link THUMBNAIL_MAX_DENSITY} times the thumbnail's size (a wider one is never picked for it).
   */
  srcset: string
}

/** The largest screen density (device pixels per CSS pixel) a thumbnail's `srcset` serves. */
export const THUMBNAIL_MAX_DENSITY = 4

/**
 * The images of a review: medias of type `IMAGE` with at least one `http(s)` variant, in the API's order,
 * as thumbnails `size` CSS pixels wide.
 */
export function reviewImages(
  medias: ReadonlyArray<Media> | undefined,
  widths: MediaWidths,
  size: number,
): ReviewImage[] {
  return (medias ?? []).flatMap((media) => {
    if (typeof media?.type !== 'string' || media.type.toUpperCase() !== 'IMAGE') return []
    const urls = { small: webUrl(media.small), medium: webUrl(media.medium), large: webUrl(media.large) }
    const href = urls.large ?? urls.medium ?? urls.small
    const src = urls.small ?? urls.medium ?? urls.large
    if (href === undefined || src === undefined) return []
    const variants = (['small', 'medium', 'large'] as const)
      .filter((variant) => urls[variant] !== undefined)
      .sort((a, b) => widths[a] - widths[b])
    const enough = variants.findIndex((variant) => widths[variant] >= THUMBNAIL_MAX_DENSITY * size)
    const srcset = (enough === -1 ? variants : variants.slice(0, enough + 1))
      .map((variant) => `${urls[variant]} ${widths[variant]}w`)
      .join(', ')
    return [{ href, src, srcset }]
  })
}

/**
 * Where a syndicated review was first posted: its source's name (else the host of its `http(s)` URL) and
 * that URL; `label` is empty when neither is known. `undefined` for a review that was not syndicated.
 */
export function reviewSource(review: ReviewData): { label: string; href: string | undefined } | undefined {
  if (review.syndicated_review !== true) return undefined
  const name = (review.syndicated_review_source ?? '').trim()
  const href = webUrl(review.syndicated_review_source_url)
  return { label: name === '' && href !== undefined ? new URL(href).host : name, href }
}

/** The merchant replies a review shows: those with a comment that is not blank. */
export function reviewReplies<Reply extends ReviewReply>(
  moderations: ReadonlyArray<Reply> | undefined,
): Reply[] {
  return (moderations ?? []).filter(
    (reply) => typeof reply?.comment === 'string' && reply.comment.trim() !== '',
  )
}
