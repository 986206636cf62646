import type { BrandRating as BrandRatingData, BrandReview } from '@verified-reviews/core'
import { getTextFormatter } from '@verified-reviews/core/i18n'
import { emptyBrandRating, otherParams, pageHrefs, parseReviewView } from '@verified-reviews/core/internal'
import type { ReactElement } from 'react'
import { ReviewLinks } from '../internal/ReviewLinks.tsx'
import type { ReviewPageProps } from '../types.ts'
import { BrandRating } from './BrandRating.tsx'
import { ReviewList } from './ReviewList.tsx'
import { ShopRating } from './ShopRating.tsx'

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
  const text = getTextFormatter(props.locale)
  const rating: BrandRatingData = props.rating ?? emptyBrandRating(shopKey)
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
