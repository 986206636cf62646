/**
 * `@verified-reviews/core/inject`: review rich snippets added to static HTML after the build. A page
 * marks its product (`<meta name="verified-reviews:product" content="SKU">` or a
 * `data-verified-reviews-product` attribute); the injector fetches the marked products' ratings and
 * reviews in bulk and gives each page one Product node in its JSON-LD. The Astro integration runs it
 * after every build; the `verified-reviews inject <dir>` command runs it over any folder.
 *
 * @module
 */

export type { TrailingSlash } from './internal/display/url.ts'
export { pageUrlOf } from './internal/inject/files.ts'
export {
  type InjectProductJsonLdOptions,
  type InjectProgress,
  type InjectReport,
  injectProductJsonLd,
  type SkippedPage,
} from './internal/inject/inject-directory.ts'
export {
  type AddProductJsonLdOptions,
  type AddProductJsonLdResult,
  addProductJsonLd,
  INJECTED_SCRIPT_ID,
  MAX_JSON_LD_DEPTH,
  MERGED_SCRIPT_ATTRIBUTE,
  PRODUCT_ATTRIBUTE,
  PRODUCT_META_NAME,
  type ProductPage,
  readProductPage,
} from './internal/inject/page.ts'
