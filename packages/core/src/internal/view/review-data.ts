import type { BrandReview, Moderation, ProductReview } from '../../types/published.ts'

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
