import type { HeadingLevel, MediaWidths } from '@verified-reviews/core/internal'

/** The props `ProductReviews` and `BrandReviews` share: a page of reviews with its links. */
export interface ReviewPageProps {
  /**
   * Reviews per page, 1 to 50.
   * @default 10
   */
  limit?: number | undefined
  /**
   * Sort and rate links, and links to the other pages of reviews, read back from the page URL.
   * @default true on a page rendered on demand, false on a prerendered one
   */
  links?: boolean | undefined
  /**
   * Level of the section headings; review headings are one level below.
   * @default 2
   */
  headingLevel?: HeadingLevel | undefined
  /** Widths of the image variants, for `srcset`. @default { small: 200, medium: 600, large: 1200 } */
  mediaWidths?: MediaWidths | undefined
  /** Language of every text. @default Astro.currentLocale, else the integration's `locale`, else 'en' */
  locale?: string | undefined
}
