/** `items` in consecutive lists of `size`, the last one shorter. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const lists: T[][] = []
  for (let start = 0; start < items.length; start += size) lists.push(items.slice(start, start + size))
  return lists
}

/**
 * Maps `items` through `task` with at most `limit` tasks running at once; results keep the order
 * of `items`. The first failure rejects, and no further task starts after it.
 */
export async function mapWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  let failed = false
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++
      try {
        results[index] = await task(items[index] as T, index)
      } catch (error) {
        failed = true
        throw error
      }
    }
  }
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker)
  await Promise.all(workers)
  return results
}
