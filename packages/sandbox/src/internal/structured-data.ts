import { ratingsOf } from './aggregate.ts'
import type { Product, ProductReview } from './types.ts'

export const STRUCTURED_DATA_FILTERS = ['aggregate_rating', 'reviews', 'review_summary'] as const
export type StructuredDataFilter = (typeof STRUCTURED_DATA_FILTERS)[number]

const CONTEXT = 'https://schema.org'

export interface StructuredDataBlocks {
  ratings?: { '@context': string; aggregateRating: Record<string, unknown> }
  reviews?: { '@context': string; review: Record<string, unknown>[] }
  reviewSummary?: { '@context': string; review: Record<string, unknown> }
}

/** "Marie D.": the first name and the initial of the last name, or the first name alone. */
export function authorName(firstname: string, lastname: string): string {
  const first = firstname.trim()
  const initial = Array.from(lastname.trim())[0]
  const name = initial ? `${first} ${initial}.`.trim() : first
  return name || 'Anonymous'
}

export interface StructuredDataRequest {
  /** The catalogue entries of the requested variations, in request order. */
  products: readonly Product[]
  /** Every review of those variations. */
  reviews: readonly ProductReview[]
  canonicalUrl: string
  filters: ReadonlySet<StructuredDataFilter>
  reviewsLimit: number
  organizationName: string
}

/**
 * The JSON-LD blocks about the reviews of one product (its variations merged). A block with
 * nothing to say is left out: Google rejects an aggregate of zero reviews.
 */
export function structuredData(request: StructuredDataRequest): StructuredDataBlocks {
  const { reviews, canonicalUrl, filters } = request
  const itemReviewed = { '@id': canonicalUrl }
  const blocks: StructuredDataBlocks = {}
  if (filters.has('aggregate_rating') && reviews.length > 0) {
    const { average, count_total } = ratingsOf(reviews)
    blocks.ratings = {
      '@context': CONTEXT,
      aggregateRating: {
        '@type': 'AggregateRating',
        ratingValue: average,
        reviewCount: count_total,
        bestRating: 5,
        worstRating: 1,
        itemReviewed,
      },
    }
  }
  if (filters.has('reviews') && reviews.length > 0) {
    const newest = [...reviews]
      .sort((a, b) =>
        a.publish_date !== b.publish_date
          ? Date.parse(b.publish_date) - Date.parse(a.publish_date)
          : a.review_id < b.review_id
            ? -1
            : 1,
      )
      .slice(0, request.reviewsLimit)
    blocks.reviews = {
      '@context': CONTEXT,
      review: newest.map((r) => ({
        '@type': 'Review',
        reviewBody: r.review_content,
        datePublished: r.publish_date,
        reviewRating: { '@type': 'Rating', ratingValue: r.review_rate, bestRating: 5, worstRating: 1 },
        author: { '@type': 'Person', name: authorName(r.author_firstname, r.author_lastname) },
        itemReviewed,
      })),
    }
  }
  // Merged variations share one summary: the first requested variation's that has one.
  const summary = request.products.find((p) => p.review_summary)?.review_summary
  if (filters.has('review_summary') && summary) {
    blocks.reviewSummary = {
      '@context': CONTEXT,
      review: {
        '@type': 'Review',
        reviewBody: summary.content,
        datePublished: summary.last_updated_at,
        author: { '@type': 'Organization', name: request.organizationName },
        itemReviewed,
      },
    }
  }
  return blocks
}

/** JSON safe inside a `<script>` element: `<`, `>`, `&`, U+2028 and U+2029 escaped. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

const SCRIPT_IDS: Record<keyof StructuredDataBlocks, string> = {
  ratings: 'vr-jsonld-aggregaterating',
  reviews: 'vr-jsonld-reviews',
  reviewSummary: 'vr-jsonld-reviewsummary',
}

/** The blocks as `<script type="application/ld+json">` elements, one per line. */
export function toScripts(blocks: StructuredDataBlocks): string {
  return (Object.keys(SCRIPT_IDS) as (keyof StructuredDataBlocks)[])
    .filter((name) => blocks[name] !== undefined)
    .map(
      (name) =>
        `<script type="application/ld+json" id="${SCRIPT_IDS[name]}">${scriptSafeJson(blocks[name])}</script>`,
    )
    .join('\n')
}
