import type { BrandRating as BrandRatingData, BrandReview } from '@verified-reviews/core'
import type { ReactElement } from 'react'
import type { HeadingLevel } from '../internal/Heading.tsx'
import { getText } from '../internal/i18n.ts'
import type { MediaWidths } from '../internal/media-widths.ts'
import { pageHrefs, ReviewLinks } from '../internal/ReviewLinks.tsx'
import { otherParams, parseReviewView, type SearchParamsRecord } from '../internal/review-query.ts'
import { BrandRating } from './BrandRating.tsx'
import { ReviewList } from './ReviewList.tsx'
import { ShopRating } from './ShopRating.tsx'

const NO_STATISTICS = { average: 0, count_1: 0, count_2: 0, count_3: 0, count_4: 0, count_5: 0 }

/** Props of {@link BrandReviewsView}: the data `BrandReviews` fetches, and how to show it. */
export interface BrandReviewsViewProps {
  /** The `GET /brands` item of the brand (`shop_key` `''`) or of the shop; `undefined` when the API has none. */
  rating: BrandRatingData | undefined
  /** The shop shown; without it, the brand. */
  shopKey?: string | undefined
  /** The shop's name, for the heading "Reviews of {name}". */
  shopName?: string | undefined
  /** The page of reviews to show, in display order. */
  reviews: readonly BrandReview[]
  /** The cursor of the next page, when there is one. */
  nextCursor?: string | null | undefined
  /** The cursor of the previous page, when there is one. */
  previousCursor?: string | null | undefined
  /** The page's search params, kept in every link (`vr_cursor`, `vr_sort`, `vr_rate` choose the view). */
  searchParams?: URLSearchParams | SearchParamsRecord | undefined
  /**
   * Level of the section headings; review headings are one level below.
   * @default 2
   */
  headingLevel?: HeadingLevel | undefined
  /** Widths of the image variants, for `srcset`. @default { small: 200, medium: 600, large: 1200 } */
  mediaWidths?: MediaWidths | undefined
  /**
   * Language of every text and date, one of bg cs de el en es fr it nl pl pt sk tr; other values are
   * resolved to the closest supported language.
   * @default 'en'
   */
  locale?: string | undefined
  /** Extra class names, added after `vr-brand-reviews`. */
  className?: string | undefined
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
