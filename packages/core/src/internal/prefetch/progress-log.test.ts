import { describe, expect, it } from 'vitest'
import { DEMO_FULL_SYNC as FULL_SYNC } from '../../../../../test/fixtures/demo-full-sync.ts'
import type { PrefetchProgress } from './build-data.ts'
import { describePrefetchProgress, prefetchProgressLog } from './progress-log.ts'

describe('describePrefetchProgress', () => {
  it('tells the reviews received against those expected, and the calls', () => {
    expect(
      describePrefetchProgress({ phase: 'reviews', reviews: 40_000, expected: 100_000, calls: 200 }),
    ).toBe('reviews 40,000/100,000, 200 calls')
  })

  it('tells the reviews of an incremental sync without a total', () => {
    expect(describePrefetchProgress({ phase: 'reviews', reviews: 12, expected: undefined, calls: 1 })).toBe(
      'reviews 12, 1 call',
    )
  })

  it('closes with what the data holds and the calls against the lower bound', () => {
    const line = describePrefetchProgress({ phase: 'done', report: FULL_SYNC })
    expect(line).toBe(
      'build data ready: 3,000 reviews of 60 products (full sync); 16 API calls (15 review pages, 1 summary page), lower bound 16',
    )
  })

  it('after a full sync of a build that named no product, says once what naming them would cost, with its figures', () => {
    const report = FULL_SYNC
    const line = describePrefetchProgress(
      { phase: 'done', report },
      '`products` of withVerifiedReviews in next.config',
    )
    expect(line).toBe(
      'build data ready: 3,000 reviews of 60 products (full sync); 16 API calls (15 review pages, 1 summary page), lower bound 16. ' +
        'This build synced the whole account, as no product was named: naming the products the pages show ' +
        '(`products` of withVerifiedReviews in next.config) fetches only theirs, ⌈their reviews / 200⌉ + ⌈their number / 200⌉ calls ' +
        "(with about 50 reviews a product here, 6 named products would cost 3 calls against this build's 16)",
    )
    // At 100,000 reviews of 10,000 products: 1,000 products named, 50 + 5 calls against 550.
    expect(
      describePrefetchProgress(
        {
          phase: 'done',
          report: {
            ...report,
            reviews: 100_000,
            products: 10_000,
            calls: { reviews: 500, summaries: 50 },
            lowerBound: 550,
          },
        },
        'there',
      ),
    ).toContain("1,000 named products would cost 55 calls against this build's 550")
    // Nothing to add: products were named, the sync was incremental, or naming would not save a call.
    const said = (changed: Partial<typeof report> & { estimate?: typeof report.estimate }) =>
      describePrefetchProgress({ phase: 'done', report: { ...report, ...changed } }, 'there')
    expect(said({ estimate: { named: 2, sync: 15 } })).not.toContain('naming')
    expect(said({ mode: 'incremental' as never })).not.toContain('naming')
    expect(said({ reviews: 100, products: 2, calls: { reviews: 1, summaries: 1 } })).not.toContain('naming')
    expect(describePrefetchProgress({ phase: 'done', report })).not.toContain('naming')
  })

  it('says when the data holds the reviews of the products the build names', () => {
    const line = describePrefetchProgress({
      phase: 'done',
      report: {
        mode: 'named',
        reviews: 104,
        newReviews: 104,
        products: 2,
        calls: { reviews: 1, summaries: 1 },
        lowerBound: 2,
        estimate: { named: 1, sync: undefined },
      },
    })
    expect(line).toBe(
      'build data ready: 104 reviews of 2 products (reviews of 2 named products); 2 API calls (1 review page, 1 summary page), lower bound 2',
    )
  })

  it('says what a waiting process waits for', () => {
    expect(
      describePrefetchProgress({
        phase: 'waiting',
        holder: 'process 12 on ci (lock /b/build.lock)',
        waitedMs: 0,
      }),
    ).toBe('waiting for the build data that process 12 on ci (lock /b/build.lock) is fetching')
  })
})

describe('prefetchProgressLog', () => {
  it('writes the first page, each quarter of the expected reviews and the closing line, not every page', () => {
    const lines: string[] = []
    const log = prefetchProgressLog((line) => lines.push(line))
    for (let calls = 1; calls <= 20; calls++) {
      log({ phase: 'reviews', reviews: calls * 200, expected: 4000, calls } satisfies PrefetchProgress)
    }
    expect(lines).toEqual([
      'reviews 200/4,000, 1 call',
      'reviews 1,000/4,000, 5 calls',
      'reviews 2,000/4,000, 10 calls',
      'reviews 3,000/4,000, 15 calls',
      'reviews 4,000/4,000, 20 calls',
    ])
  })
})
