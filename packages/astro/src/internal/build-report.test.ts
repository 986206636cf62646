import { beforeEach, describe, expect, it } from 'vitest'
import { countingFetch, describeBuildCalls, emptyCalls, reportedLister } from './build-report.ts'
import { shared, startRun } from './shared.ts'

beforeEach(() => {
  startRun({ clientOptions: undefined, command: 'build', storeDir: undefined, locale: undefined })
})

/** A lister of `total` reviews in pages of `size`, as the client's list operations page them. */
function lister(total: number, size: number) {
  const page = (from: number) => ({
    data: Array.from({ length: Math.min(size, total - from) }, (_, i) => ({ review_id: `r${from + i}` })),
    hasNextPage: () => from + size < total,
    getNextPage: async () => page(from + size),
  })
  return { list: async (_params: unknown) => page(0) }
}

describe('reportedLister', () => {
  it('writes the progress of a sync in the lines of the build prefetch, page after page', async () => {
    const lines: string[] = []
    const reported = reportedLister(lister(450, 200), (line) => lines.push(line))
    let page = await reported.list({})
    while (page.hasNextPage()) page = await page.getNextPage()
    expect(lines).toEqual(['reviews 200, 1 call'])
    expect(page.data).toHaveLength(50)
  })
})

describe('countingFetch', () => {
  it('counts the API calls by data, not the token requests', async () => {
    const answer = async () => new Response('{}')
    const send = countingFetch(answer, () => shared().calls)
    await send('https://auth.example/token', { method: 'POST', body: 'grant_type=client_credentials' })
    await send('https://api.example/v1/published/products/reviews?limit=200', { method: 'GET' })
    await send('https://api.example/v1/published/products', { method: 'GET' })
    await send('https://api.example/v1/published/brands/reviews', { method: 'GET' })
    expect(shared().calls).toEqual({ product: 2, brand: 1, other: 0 })
  })
})

describe('describeBuildCalls', () => {
  it('tells every call of the build, by data', () => {
    expect(describeBuildCalls({ product: 16, brand: 12, other: 0 })).toBe(
      'API calls: 28 in all (16 for product data, 12 for brand data)',
    )
  })

  it('leaves out the data the build did not fetch', () => {
    expect(describeBuildCalls({ ...emptyCalls(), product: 2 })).toBe(
      'API calls: 2 in all (2 for product data)',
    )
  })
})
