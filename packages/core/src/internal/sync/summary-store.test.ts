import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { ProductSummary } from '../../types/published.ts'
import {
  createMemorySummaryStore,
  createSqliteSummaryStore,
  type ProductSummaryStore,
} from './summary-store.ts'

const folder = mkdtempSync(join(tmpdir(), 'vr-summaries-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const summary = (id: string, count: number) =>
  ({ product_variation_id: id, ratings: { average: 4, count_total: count } }) as unknown as ProductSummary
const counts = async (store: ProductSummaryStore, ids: string[]) =>
  (await store.getMany(ids)).map((found) => found?.ratings.count_total)

describe.each([
  ['memory', () => createMemorySummaryStore()],
  ['SQLite', () => createSqliteSummaryStore(join(folder, `${Math.random()}.sqlite`))],
])('the %s summary store', (_name, create) => {
  it('replaces a summary by product and forgets those removed, ignoring ids it does not hold', async () => {
    const store = create()
    await store.putMany([summary('P1', 1), summary('P2', 2), summary('P3', 3)])
    await store.putMany([summary('P1', 4)])
    expect(await counts(store, ['P3', 'none', 'P1'])).toEqual([3, undefined, 4])
    await store.removeMany?.(['P1', 'none', 'P3'])
    await store.removeMany?.([])
    expect(await counts(store, ['P1', 'P2', 'P3'])).toEqual([undefined, 2, undefined])
    expect(await store.count()).toBe(1)
  })
})
