import type { VerifiedReviewsClient } from '@verified-reviews/core'
import {
  checkLimit,
  DEFAULT_REVIEWS_LIMIT,
  type ProductReplica,
  productSection,
  structuredDataJsonLd,
  variationIds,
} from '@verified-reviews/core/internal'
import type { ReactElement } from 'react'
import {
  type ReviewsErrorHandler,
  reportError,
  resolveClient,
  type SearchParamsInput,
} from '../internal/data.ts'
import { viewPage } from '../internal/view-page.ts'
import { ProductReviewsView, type ProductReviewsViewProps } from './ProductReviewsView.tsx'

/** Props of {@link ProductReviews}. */
export interface ProductReviewsProps
  extends Omit<
    ProductReviewsViewProps,
    'summary' | 'reviews' | 'nextCursor' | 'previousCursor' | 'searchParams' | 'jsonLd'
  > {
  /**
   * The page's search params, as the framework gives them (Next.js: the page's `searchParams`
   * promise, passed as it is). `vr_cursor`, `vr_sort` and `vr_rate` choose the page of reviews; the
   * others are kept in every link.
   */
  searchParams?: SearchParamsInput
  /**
   * Where the JSON-LD comes from: `data` builds it from the summary and reviews fetched anyway (no
   * extra call), `api` asks the structured-datas operation, `false` renders none. Needs `url`.
   * @default 'data'
   */
  jsonLd?: 'data' | 'api' | false
  /** The client to call. @default a client built by `createClient()` from the environment */
  client?: VerifiedReviewsClient
  /**
   * The site's replica of the account (reviews and product summaries, kept current by a sync): the
   * summary and every view (order, rates, page) are read from it, with no API call; the client then
   * only signs the cursors. `@verified-reviews/next` passes the one of the process.
   * @default undefined (the API)
   */
  replica?: ProductReplica | undefined
  /**
   * Receives an API failure, after which nothing is rendered. Each failure is reported once.
   * @default logs to `console.error`
   */
  onError?: ReviewsErrorHandler
}

/**
 * A product's reviews, fetched on the server: rating summary and histogram (with rate links), AI
 * summary, the first page of reviews with sort and rate links, and the JSON-LD rich snippets, all in
 * the first HTML. Two calls (product summary and reviews, in parallel), three with `jsonLd: 'api'`.
 *
 * Without `endpoint`, further pages are plain links carrying `vr_cursor` (and `vr_sort`, `vr_rate`) in
 * the page URL, so the page must pass its `searchParams`. With `endpoint`, the "More reviews" island
 * appends them in the browser and still works as a link without JavaScript. Every cursor handed out is
 * signed with the key of the client (`cursorSigner`, the key the reviews endpoint checks), and a
 * `vr_cursor` that key did not sign for this product, order, rates and `limit` shows the first page.
 *
 * A product without reviews renders the neutral "No reviews yet". An API failure renders nothing and is
 * reported once to `onError`; it never breaks the page.
 *
 * @throws RangeError when `limit` is not a whole number from 1 to 50.
 */
export async function ProductReviews(props: ProductReviewsProps): Promise<ReactElement | null> {
  const {
    client,
    replica,
    onError,
    searchParams,
    jsonLd = 'data',
    limit = DEFAULT_REVIEWS_LIMIT,
    ...view
  } = props
  checkLimit(limit)
  try {
    const params = await searchParams
    const vr = await resolveClient(client)
    // One product, or the variations of a group shown together.
    const ids = variationIds(props.productId)
    const structuredData =
      jsonLd === 'api' && props.url !== undefined
        ? structuredDataJsonLd(
            vr,
            { product_variation_id: ids },
            { url: props.url, product: props.product, reviewSummaryAuthor: props.reviewSummaryAuthor },
            // The reviews still show when only the structured data fails.
            (error) => reportError(error, 'ProductReviews', onError),
          )
        : undefined
    const [{ page, searchParams: pageParams }, node] = await Promise.all([
      viewPage(vr, params, (reviewView, signer) =>
        // The replica when one is given, else the API (`productSection`'s order).
        productSection({ replica, client: vr, ids, view: reviewView, limit, signer }),
      ),
      structuredData,
    ])
    return (
      <ProductReviewsView
        {...view}
        limit={limit}
        summary={page.summary}
        reviews={page.data}
        nextCursor={page.nextCursor}
        previousCursor={page.previousCursor}
        searchParams={pageParams}
        jsonLd={jsonLd === false ? false : structuredData === undefined ? true : (node ?? null)}
      />
    )
  } catch (error) {
    reportError(error, 'ProductReviews', onError)
    return null
  }
}
