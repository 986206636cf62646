import { check } from '../base/validate.ts'

/** Options of {@link skipItems} and {@link takeItems}. */
export interface WindowOptions<T> {
  /**
   * Counts per group instead of over the whole walk: legacy `offset` and `limit` applied to each
   * product's reviews, so pass `(review) => review.product_variation_id` to keep their meaning.
   * @default one group for every item
   */
  per?: (item: T) => string
}

/**
 * Walks `source` and passes over its first `count` items (of each group, with `per`): what an old
 * `offset` or page number did, since a cursor can only continue from the page before it. The pages
 * skipped are still fetched; a migration that walks from the start once and keeps the walk (see the
 * sync entry) avoids paying for them on every call.
 *
 * @example
 * for await (const review of skipItems(vr.products.reviews.list(params), 40)) render(review)
 */
export async function* skipItems<T>(
  source: AsyncIterable<T> | Iterable<T>,
  count: number,
  options: WindowOptions<T> = {},
): AsyncGenerator<T, void, undefined> {
  checkCount(count)
  const seen = new Map<string, number>()
  for await (const item of source) {
    const group = options.per?.(item) ?? ''
    const index = seen.get(group) ?? 0
    seen.set(group, index + 1)
    if (index >= count) yield item
  }
}

/**
 * Walks `source` and keeps at most `count` items (of each group, with `per`). Without `per` it stops
 * the walk as soon as it has them, so no further page is requested; with `per` it walks to the end,
 * since a later page may still hold items of a group.
 */
export async function* takeItems<T>(
  source: AsyncIterable<T> | Iterable<T>,
  count: number,
  options: WindowOptions<T> = {},
): AsyncGenerator<T, void, undefined> {
  checkCount(count)
  if (count === 0) return
  const kept = new Map<string, number>()
  for await (const item of source) {
    const group = options.per?.(item) ?? ''
    const index = kept.get(group) ?? 0
    if (index < count) {
      kept.set(group, index + 1)
      yield item
      if (options.per === undefined && index + 1 === count) return
    }
  }
}

function checkCount(count: number): void {
  check(Number.isInteger(count) && count >= 0, 'count', `must be an integer, 0 or more; got ${count}`)
}
