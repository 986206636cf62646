/**
 * State one process keeps on `globalThis`, under a registered symbol, because a framework may evaluate
 * one of our modules more than once in a process (Next.js bundles `instrumentation.ts`, the routes and the
 * pages apart; Astro evaluates `astro.config`, `content.config.ts` and the pages in module graphs of their
 * own), and a module variable would then exist once per copy. Every such state of the packages, and why
 * it must be one per process:
 *
 * | symbol | where | why one per process |
 * |---|---|---|
 * | `verified-reviews.default-clients` | core `client/default-client.ts` | the clients of `defaultClient`: every copy shares one token and one rate budget |
 * | `verified-reviews.prefetch` | core `prefetch/build-data.ts` | the build data being fetched: the pages of one build worker wait for one fetch |
 * | `verified-reviews.next.shared-client-state` | next `internal/shared-client-state.ts` | what `shareClientState` gave in `instrumentation.ts`, read by the routes and pages |
 * | `verified-reviews.next.shared-render-cache` | next `internal/render-cache-sharing.ts` | that the render cache is shared (marked by the cache handlers Next.js loads by path), read by the pages, which then refuse this server's own replica |
 * | `verified-reviews.next.replica` | next `internal/replica.ts` | the site's replica: the renders and the revalidate route read and write one store |
 * | `verified-reviews.next.build-problems` | next `internal/build-check.ts` | the build problems already told, each told once |
 * | `@verified-reviews/astro` | astro `internal/shared.ts` | the integration's settings, client and catalog, read by the loaders and pages |
 *
 * Nothing else is kept on `globalThis`; a new entry belongs in this table.
 */
export function processState<T>(symbol: symbol, create: () => T): T {
  const holder = globalThis as Record<symbol, unknown>
  if (!(symbol in holder)) holder[symbol] = create()
  return holder[symbol] as T
}
