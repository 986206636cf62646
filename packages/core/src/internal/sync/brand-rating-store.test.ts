import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BrandRating } from '../../types/published.ts'
import {
  type BrandRatingStore,
  createMemoryBrandRatingStore,
  createSqliteBrandRatingStore,
} from './brand-rating-store.ts'

const rating = (shopKey: string, average: number) =>
  ({ shop_key: shopKey, one_year: { average }, five_year: { average } }) as unknown as BrandRating

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function sqliteStore(): Promise<{
  store: BrandRatingStore & { close(): Promise<void> }
  file: string
}> {
  const dir = await mkdtemp(join(tmpdir(), 'vr-brand-ratings-'))
  dirs.push(dir)
  const file = join(dir, 'replica.sqlite')
  return { store: createSqliteBrandRatingStore(file), file }
}

describe.each([
  ['createMemoryBrandRatingStore', async () => ({ store: createMemoryBrandRatingStore(), file: '' })],
  ['createSqliteBrandRatingStore', sqliteStore],
])('%s', (_name, make) => {
  it('holds nothing and no fetch time before its first answer', async () => {
    const { store } = await make()
    expect(await store.fetchedAt()).toBeUndefined()
    expect(await store.getMany(['', 'shop-a'])).toEqual([undefined, undefined])
  })

  it('replaces every statistic at once, a shop gone upstream included, and says when', async () => {
    const { store } = await make()
    await store.replaceAll(
      [rating('', 4.1), rating('shop-a', 4.5), rating('shop-b', 3.9)],
      '2026-11-01T00:00:00.000Z',
    )
    await store.replaceAll([rating('', 4.2), rating('shop-a', 4.6)], '2026-11-02T00:00:00.000Z')
    expect(await store.fetchedAt()).toBe('2026-11-02T00:00:00.000Z')
    const found = await store.getMany(['shop-b', 'shop-a', ''])
    expect(found.map((held) => held?.one_year.average)).toEqual([undefined, 4.6, 4.2])
  })
})

it('keeps the statistics in the file for the next process', async () => {
  const { store, file } = await sqliteStore()
  await store.replaceAll([rating('', 4.4)], '2026-11-03T00:00:00.000Z')
  await store.close()
  const reopened = createSqliteBrandRatingStore(file)
  expect(await reopened.fetchedAt()).toBe('2026-11-03T00:00:00.000Z')
  expect((await reopened.getMany(['']))[0]?.one_year.average).toBe(4.4)
  await reopened.close()
})
