import type { BrandRating as BrandRatingData, VerifiedReviewsClient } from '@verified-reviews/core'
import type { ReactElement } from 'react'
import {
  type ReviewsErrorHandler,
  reportError,
  resolveClient,
  type SearchParamsInput,
} from '../internal/data.ts'
import type { HeadingLevel } from '../internal/Heading.tsx'
import { getText } from '../internal/i18n.ts'
import type { MediaWidths } from '../internal/media-widths.ts'
import { pageHrefs, ReviewLinks } from '../internal/ReviewLinks.tsx'
import { checkLimit, DEFAULT_REVIEWS_LIMIT, otherParams, parseReviewView } from '../internal/review-query.ts'
import { viewPage } from '../internal/view-page.ts'
import { BrandRating } from './BrandRating.tsx'
import { ReviewList } from './ReviewList.tsx'
import { ShopRating } from './ShopRating.tsx'

/** Props of {@link BrandReviews}. */
export interface BrandReviewsProps {
  /** One shop of the brand (`shop_key`); without it, the brand and every review of it, shops included. */
  shopKey?: string
  /** The shop's name, for the heading "Reviews of {name}". */
  shopName?: string
  /** The page's search params (`vr_cursor`, `vr_sort`, `vr_rate`), as the framework gives them. */
  searchParams?: SearchParamsInput
  /**
   * Reviews per page, 1 to 50.
   * @default 10
   */
  limit?: number
  /**
   * Level of the section headings; review headings are one level below.
   * @default 2
   */
  headingLevel?: HeadingLevel
  /** Widths of the image variants, for `srcset`. @default { small: 200, medium: 600, large: 1200 } */
  mediaWidths?: MediaWidths
  /**
   * Language of every text and date, one of bg cs de el en es fr it nl pl pt sk tr; other values are
   * resolved to the closest supported language.
   * @default 'en'
   */
  locale?: string
  /** Extra class names, added after `vr-brand-reviews`. */
  className?: string
  /** The client to call. @default a client built by `createClient()` from the environment */
  client?: VerifiedReviewsClient
  /**
   * Receives an API failure, after which nothing is rendered. Each failure is reported once.
   * @default logs to `console.error`
   */
  onError?: ReviewsErrorHandler
}

const NO_STATISTICS = { average: 0, count_1: 0, count_2: 0, count_3: 0, count_4: 0, count_5: 0 }

/**
 * Reviews of the brand, or of one of its shops, fetched on the server: the 12-month and 5-year
 * statistics, then a page of reviews with sort and rate links and links to the other pages. Two calls,
 * in parallel. No JSON-LD: Google treats reviews a business collects about itself as self-serving.
 *
 * A brand or shop without reviews renders its neutral state; an API failure renders nothing and is
 * reported once to `onError`.
 *
 * @throws RangeError when `limit` is not a whole number from 1 to 50.
 */
export async function BrandReviews(props: BrandReviewsProps): Promise<ReactElement | null> {
  const { shopKey, shopName, limit = DEFAULT_REVIEWS_LIMIT, headingLevel = 2, locale, className } = props
  checkLimit(limit)
  try {
    const params = await props.searchParams
    const view = parseReviewView(params)
    const vr = await resolveClient(props.client)
    const shopFilter = shopKey === undefined ? {} : { shop_key: [shopKey] }
    const [ratings, { page, cursor }] = await Promise.all([
      vr.brands.list(shopKey === undefined ? { linked_to_shop: false } : { shop_key: [shopKey] }),
      viewPage((list) => vr.brands.reviews.list({ ...list, ...shopFilter }), view, limit),
    ])
    const rating: BrandRatingData = ratings.data.find((item) => item.shop_key === (shopKey ?? '')) ?? {
      shop_key: shopKey ?? '',
      website_id: '',
      count_total_since_creation: 0,
      oldest_review_publish_date: null,
      one_year: NO_STATISTICS,
      five_year: NO_STATISTICS,
    }
    const text = getText(locale)
    const query = otherParams(params)
    const shown = { ...view, cursor }
    const { previousHref, nextHref } = pageHrefs(query, shown, page)
    return (
      <div className={className ? `vr-brand-reviews ${className}` : 'vr-brand-reviews'}>
        {shopKey === undefined ? (
          <BrandRating rating={rating} headingLevel={headingLevel} locale={text.locale} />
        ) : (
          <ShopRating rating={rating} name={shopName} headingLevel={headingLevel} locale={text.locale} />
        )}
        {(rating.count_total_since_creation > 0 || page.data.length > 0) && (
          <ReviewList
            reviews={page.data}
            headingLevel={headingLevel}
            mediaWidths={props.mediaWidths}
            locale={text.locale}
            moreReviews={(items) => (
              <ReviewLinks
                text={text}
                items={items}
                view={shown}
                query={query}
                previousHref={previousHref}
                nextHref={nextHref}
              />
            )}
          />
        )}
      </div>
    )
  } catch (error) {
    reportError(error, 'BrandReviews', props.onError)
    return null
  }
}
