/**
 * `@verified-reviews/astro`: the Astro integration of Verified Reviews (Skeepers). The default export is
 * the integration; the content loaders are exported from `@verified-reviews/astro/loaders` and the
 * components from `@verified-reviews/astro/components`, each name from one entry.
 *
 * @module
 */
export {
  type IntegrationClientOptions,
  type VerifiedReviewsOptions,
  verifiedReviews,
  verifiedReviews as default,
} from './integration.ts'
export { VerifiedReviewsOptionError } from './option-error.ts'
