/**
 * JSON-LD for review rich snippets: one builder and one serializer shared by the React components, the
 * Astro components and the HTML injector, so that their markup is identical.
 *
 * @module
 */
export { type ReviewAuthor, reviewAuthorName } from './internal/display/author-name.ts'
export { combineRatings, type VariationRating } from './internal/display/product-group.ts'
export { JsonLdInputError } from './internal/jsonld/json-ld-input-error.ts'
export { isProductNode, type JsonLdNode, mergeJsonLd, mergeProductNodes } from './internal/jsonld/merge.ts'
export {
  buildOrganizationJsonLd,
  type OrganizationFacts,
  type OrganizationJsonLd,
  type OrganizationJsonLdOptions,
  type OrganizationType,
  type RatingPeriod,
  SELF_SERVING_REVIEWS_OPT_IN,
} from './internal/jsonld/organization.ts'
export {
  buildProductJsonLd,
  type ProductJsonLdOptions,
  type ProductRatingData,
} from './internal/jsonld/product.ts'
export type {
  ProductFacts,
  ProductGroupFacts,
  ProductJsonLd,
  ProductJsonLdBaseOptions,
} from './internal/jsonld/product-node.ts'
export type { ReviewData } from './internal/jsonld/review-markup.ts'
export {
  escapeHtmlAttribute,
  type JsonLdScriptTagOptions,
  jsonLdScriptTag,
  serializeJsonLd,
} from './internal/jsonld/serialize.ts'
export {
  fromStructuredData,
  type StructuredDataBlock,
  type StructuredDataJsonLdOptions,
} from './internal/jsonld/structured-data.ts'
export { StructuredDataError } from './internal/jsonld/structured-data-error.ts'
export { parseStructuredDataScript } from './internal/jsonld/structured-data-script.ts'
export type { JsonLdLogger } from './internal/jsonld/warnings.ts'
