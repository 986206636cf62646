import type { MessageKey } from '@verified-reviews/core/i18n'

/**
 * The messages the island can show: a review, the sort and rate links, the list states and the page
 * links. The server hands the island these alone, in the page's language, instead of the catalogue.
 */
export const ISLAND_MESSAGE_KEYS = [
  'anonymousAuthor',
  'verifiedPurchase',
  'verifiedPurchaseExplanation',
  'giftedDisclosure',
  'compensatedDisclosure',
  'photoFromReviewBy',
  'syndicatedFrom',
  'syndicatedFromAnotherSite',
  'merchantResponse',
  'translated',
  'translatedFrom',
  'showOriginal',
  'ratingOutOfFive',
  'ratingOutOfFiveShort',
  'ratingLabel',
  'sortBy',
  'sortNewest',
  'sortOldest',
  'sortHighestRating',
  'sortLowestRating',
  'filterByRating',
  'allRatings',
  'starCount',
  'noReviews',
  'noReviewsForFilter',
  'loadingReviews',
  'moreReviews',
  'previousPage',
  'nextPage',
  'reviewPages',
] as const satisfies readonly MessageKey[]
