import type { SyncPage } from './engine.ts'

/** A list operation that answers pages: `client.products.reviews`, `client.brands.reviews`. */
export interface PagedLister<T, P> {
  /** `options`: the sync's `{ cache: false }` (`SyncRequestOptions`), passed on to `lister`. */
  list(params: P, options?: { cache: false }): PromiseLike<SyncPage<T>>
}

/**
 * `lister` whose pages are told to `onPage` as they arrive (the first page and each next one), for a
 * progress display or a count of calls; the pages themselves pass through unchanged.
 *
 * @example
 * let calls = 0
 * await syncBrandReviews({ client: { brands: { reviews: observePages(client.brands.reviews, () => calls++) } }, store })
 */
export function observePages<T, P>(
  lister: PagedLister<T, P>,
  onPage: (page: SyncPage<T>) => void,
): PagedLister<T, P> {
  const observed = (page: SyncPage<T>): SyncPage<T> => {
    onPage(page)
    return {
      data: page.data,
      nextCursor: page.nextCursor,
      hasNextPage: () => page.hasNextPage(),
      // `then`, not an async function that would hold this page while the next one arrives.
      getNextPage: () => page.getNextPage().then(observed),
    }
  }
  return { list: async (params, options) => observed(await lister.list(params, options)) }
}
