import type { ProductListParams } from '../../types/params.ts'
import type { ProductSummary } from '../../types/published.ts'
import { chunks } from '../base/concurrency.ts'
import { MAX_VALUES } from '../context/query-string.ts'

/** One page of `products.list`, as much of it as the catalog needs. */
export interface SummaryPage {
  data: ProductSummary[]
  hasNextPage(): boolean
  getNextPage(): Promise<SummaryPage>
}

/** What the summaries need of a client: `createClient()` satisfies it. */
export interface SummaryClient {
  products: { list(params: ProductListParams): PromiseLike<SummaryPage> }
}

/** Product summaries and the `products.list` calls they took. */
export interface FetchedSummaries {
  summaries: ProductSummary[]
  calls: number
  /** Whether `summaries` are every product of the account (so that its review count is known). */
  all: boolean
}

/**
 * The summaries of `productIds` (200 ids per call, in the order given), or of every product of the
 * account when it is undefined (one walk of `products.list`, 200 per page). Up to 200 ids are first
 * asked for as the first page of the walk: an account of 200 products or fewer then gives every
 * summary for the same one call (and the account's review count, which the choice of a full sync
 * needs); a larger one costs one call more. `onPage` is told the summaries and calls so far.
 */
export async function fetchSummaries(
  client: SummaryClient,
  productIds: readonly string[] | undefined,
  options: { signal?: AbortSignal | undefined; onPage?: (products: number, calls: number) => void } = {},
): Promise<FetchedSummaries> {
  const summaries: ProductSummary[] = []
  let calls = 0
  const received = (page: SummaryPage) => {
    calls++
    for (const summary of page.data) summaries.push(summary)
    options.onPage?.(summaries.length, calls)
  }
  const ids = productIds === undefined ? undefined : [...new Set(productIds)]
  if (ids === undefined || ids.length <= MAX_VALUES) {
    let page = await client.products.list({ limit: MAX_VALUES })
    received(page)
    while (ids === undefined && page.hasNextPage()) {
      options.signal?.throwIfAborted()
      page = await page.getNextPage()
      received(page)
    }
    if (ids === undefined || !page.hasNextPage()) return { summaries, calls, all: true }
    summaries.length = 0
  }
  for (const batch of chunks(ids, MAX_VALUES)) {
    options.signal?.throwIfAborted()
    // At most 200 ids give at most 200 summaries: one page at the API's largest page size.
    received(await client.products.list({ product_variation_id: batch, limit: MAX_VALUES }))
  }
  const order = new Map(ids.map((id, index) => [id, index]))
  summaries.sort(
    (a, b) => (order.get(a.product_variation_id) ?? 0) - (order.get(b.product_variation_id) ?? 0),
  )
  return { summaries, calls, all: false }
}
