/**
 * `@verified-reviews/astro`: the Astro integration of Verified Reviews (Skeepers). The default export is
 * the integration; the content loaders are also exported from `@verified-reviews/astro/loaders` and the
 * components from `@verified-reviews/astro/components`.
 *
 * @module
 */
export {
  type IntegrationClientOptions,
  type VerifiedReviewsOptions,
  verifiedReviews,
  verifiedReviews as default,
} from './integration.ts'
export * from './loaders-entry.ts'
export { VerifiedReviewsOptionError } from './option-error.ts'
