import type { HeadingLevel, MediaWidths, SearchParamsRecord } from '@verified-reviews/core/internal'

export type { HeadingLevel }

/** A page of reviews and where it sits: the props `ProductReviewsView` and `BrandReviewsView` share. */
export interface ReviewPageProps<Review> {
  /** The page of reviews to show, in display order. */
  reviews: readonly Review[]
  /**
   * The cursor of the next page, when there is one, signed for this list and page size by
   * `cursorSigner(client).sign(…)` (`@verified-reviews/core/endpoint`): the reviews endpoint and the
   * data components accept no other. The data components pass it signed.
   */
  nextCursor?: string | null | undefined
  /** The cursor of the previous page, when there is one, signed as `nextCursor` is. */
  previousCursor?: string | null | undefined
  /**
   * The page's search params, so links keep them and carry `vr_cursor`, `vr_sort` (`newest`, `oldest`,
   * `highest`, `lowest`) and `vr_rate` (a comma list of 1 to 5). Bad values of these are ignored.
   */
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
  /** Extra class names, added after the component's own. */
  className?: string | undefined
}
