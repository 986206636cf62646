/**
 * `@verified-reviews/next/config`: helpers for `next.config.ts`. This entry holds no credentials and
 * imports nothing of the server, so the config file can import it.
 *
 * @module
 */

/** The search params that choose a view of the reviews: the page of reviews, the order, the rates kept. */
export const REVIEW_VIEW_PARAMS = ['vr_cursor', 'vr_sort', 'vr_rate'] as const

/** A rewrite as `next.config`'s `rewrites()` takes it. */
export interface ReviewViewRewrite {
  source: string
  destination: string
  has: [{ type: 'query'; key: (typeof REVIEW_VIEW_PARAMS)[number] }]
}

/** A static page, and the dynamic page that shows it with a view of its reviews. */
export interface ReviewViewRoute {
  /** The static page, as a Next.js path pattern (`/:locale/products/:id`). */
  source: string
  /** A page that renders the same and passes its `searchParams` to the reviews (`/:locale/products/:id/reviews`). */
  destination: string
}

/**
 * Rewrites for `next.config`'s `rewrites().beforeFiles`, so that the plain links of the reviews (next
 * page, sort and rate, which carry `vr_cursor`, `vr_sort` or `vr_rate`) work without JavaScript on a
 * static (ISR) page. A static page cannot read search params; with any of these, the request is
 * rewritten to `destination`, a dynamic page that does, and the address bar keeps the static URL.
 * Requests without them still get the static page.
 *
 * @example
 * // next.config.ts
 * import { reviewViewRewrites } from '@verified-reviews/next/config'
 * export default {
 *   async rewrites() {
 *     return { beforeFiles: reviewViewRewrites({ source: '/:locale/products/:id', destination: '/:locale/products/:id/reviews' }) }
 *   },
 * }
 */
export function reviewViewRewrites(
  routes: ReviewViewRoute | readonly ReviewViewRoute[],
): ReviewViewRewrite[] {
  const list: readonly ReviewViewRoute[] = Array.isArray(routes) ? routes : [routes as ReviewViewRoute]
  return list.flatMap(({ source, destination }) =>
    REVIEW_VIEW_PARAMS.map((key) => ({
      source,
      destination,
      has: [{ type: 'query' as const, key }] as ReviewViewRewrite['has'],
    })),
  )
}
