import type { BrandRating as BrandRatingData, BrandReview } from '@verified-reviews/core'
import type { ReactElement } from 'react'
import { getText } from '../internal/i18n.ts'
import { pageHrefs, ReviewLinks } from '../internal/ReviewLinks.tsx'
import { otherParams, parseReviewView } from '../internal/review-query.ts'
import type { ReviewPageProps } from '../types.ts'
import { BrandRating } from './BrandRating.tsx'
import { ReviewList } from './ReviewList.tsx'
import { ShopRating } from './ShopRating.tsx'

const NO_STATISTICS = { average: 0, count_1: 0, count_2: 0, count_3: 0, count_4: 0, count_5: 0 }

/** Props of {@link BrandReviewsView}: the data `BrandReviews` fetches, and how to show it. */
export interface BrandReviewsViewProps extends ReviewPageProps<BrandReview> {
  /** The `GET /brands` item of the brand (`shop_key` `''`) or of the shop; `undefined` when the API has none. */
  rating: BrandRatingData | undefined
  /** The shop shown; without it, the brand. */
  shopKey?: string | undefined
  /** The shop's name, for the heading "Reviews of {name}". */
  shopName?: string | undefined
}

/**
 * What `BrandReviews` renders, from data already at hand: the brand's (or shop's) 12-month and 5-year
 * statistics, then the reviews with sort and rate links and links to the previous and next pages. No
 * JSON-LD: Google treats reviews a business collects about itself as self-serving.
 *
 * Class names: `vr-brand-reviews`, and those of `BrandRating`, `ShopRating` and `ReviewList`.
 */
export function BrandReviewsView(props: BrandReviewsViewProps): ReactElement {
  const { shopKey, reviews, searchParams, headingLevel = 2, className } = props
  const text = getText(props.locale)
  const rating: BrandRatingData = props.rating ?? {
    shop_key: shopKey ?? '',
    website_id: '',
    count_total_since_creation: 0,
    oldest_review_publish_date: null,
    one_year: NO_STATISTICS,
    five_year: NO_STATISTICS,
  }
  const view = parseReviewView(searchParams)
  const query = otherParams(searchParams)
  const { previousHref, nextHref } = pageHrefs(query, view, props)
  return (
    <div className={className ? `vr-brand-reviews ${className}` : 'vr-brand-reviews'}>
      {shopKey === undefined ? (
        <BrandRating rating={rating} headingLevel={headingLevel} locale={text.locale} />
      ) : (
        <ShopRating rating={rating} name={props.shopName} headingLevel={headingLevel} locale={text.locale} />
      )}
      {(rating.count_total_since_creation > 0 || reviews.length > 0) && (
        <ReviewList
          reviews={reviews}
          headingLevel={headingLevel}
          mediaWidths={props.mediaWidths}
          locale={text.locale}
          moreReviews={(items) => (
            <ReviewLinks
              text={text}
              items={items}
              view={view}
              query={query}
              previousHref={previousHref}
              nextHref={nextHref}
            />
          )}
        />
      )}
    </div>
  )
}
