import type { DatabaseSync } from 'node:sqlite'
import type { BrandRating } from '../../types/published.ts'
import { sharedPromise } from '../base/single-flight.ts'
import { openSqliteFile, transaction } from '../base/sqlite.ts'

/**
 * Where a site keeps the statistics of its brand and shops (`GET /brands`: the 12-month and 5-year
 * averages and counts) that the shop page shows above the reviews. One call answers them all, and the
 * 12-month figures move as days pass, so the store replaces them all at once and says when.
 */
export interface BrandRatingStore {
  /** The statistics of `shopKeys` (`''` for the brand itself), in their order; undefined where none is held. */
  getMany(shopKeys: readonly string[]): Promise<(BrandRating | undefined)[]>
  /** Replaces every held statistic with `ratings` (one answer of `GET /brands`), fetched at `fetchedAt` (ISO 8601). */
  replaceAll(ratings: readonly BrandRating[], fetchedAt: string): Promise<void>
  /** When the held statistics were fetched, or undefined before the first {@link BrandRatingStore.replaceAll}. */
  fetchedAt(): Promise<string | undefined>
}

/** A {@link BrandRatingStore} in memory: tests and small sites. */
export function createMemoryBrandRatingStore(): BrandRatingStore {
  let held = new Map<string, string>()
  let fetched: string | undefined
  return {
    getMany: async (keys) =>
      keys.map((key) => {
        const json = held.get(key)
        return json === undefined ? undefined : (JSON.parse(json) as BrandRating)
      }),
    async replaceAll(ratings, fetchedAt) {
      held = new Map(ratings.map((rating) => [rating.shop_key, JSON.stringify(rating)]))
      fetched = fetchedAt
    },
    fetchedAt: async () => fetched,
  }
}

/**
 * The table of the statistics, in the replica's file beside its reviews: one row a shop (`''` for the
 * brand), and one row of the fetch time under a key no shop has (`shop_key` NULL).
 */
export const BRAND_RATING_TABLE =
  'CREATE TABLE IF NOT EXISTS brand_ratings (shop_key TEXT UNIQUE, json TEXT NOT NULL);'

/** A {@link BrandRatingStore} in an SQLite file, with what a file needs besides. */
export interface SqliteBrandRatingStore extends BrandRatingStore {
  /** Every held statistic (a replica's copy reads them all), in no particular order. */
  all(): Promise<BrandRating[]>
  /** Closes the file; the store must not be used afterwards. */
  close(): Promise<void>
}

/** A {@link BrandRatingStore} in the table `brand_ratings` of an SQLite file (the replica's), opened on first use. */
export function createSqliteBrandRatingStore(file: string, busyTimeout = 5000): SqliteBrandRatingStore {
  let opening: Promise<DatabaseSync> | undefined
  const open = sharedPromise(() => openSqliteFile(file, busyTimeout, 'NORMAL', BRAND_RATING_TABLE))
  const use = () => {
    opening = open()
    return opening
  }
  return {
    async getMany(keys) {
      const db = await use()
      const found = new Map<string, string>()
      const rows = db
        .prepare(
          'SELECT shop_key, json FROM brand_ratings WHERE shop_key IN (SELECT value FROM json_each(?))',
        )
        .all(JSON.stringify(keys))
      for (const row of rows) found.set(row.shop_key as string, row.json as string)
      return keys.map((key) => {
        const json = found.get(key)
        return json === undefined ? undefined : (JSON.parse(json) as BrandRating)
      })
    },
    async replaceAll(ratings, fetchedAt) {
      const db = await use()
      transaction(db, () => {
        db.exec('DELETE FROM brand_ratings')
        const put = db.prepare('INSERT OR REPLACE INTO brand_ratings (shop_key, json) VALUES (?, ?)')
        put.run(null, JSON.stringify(fetchedAt))
        for (const rating of ratings) put.run(rating.shop_key, JSON.stringify(rating))
      })
    },
    async all() {
      const db = await use()
      return db
        .prepare('SELECT json FROM brand_ratings WHERE shop_key IS NOT NULL')
        .all()
        .map((row) => JSON.parse(row.json as string) as BrandRating)
    },
    async fetchedAt() {
      const db = await use()
      const row = db.prepare('SELECT json FROM brand_ratings WHERE shop_key IS NULL').get()
      return row === undefined ? undefined : (JSON.parse(row.json as string) as string)
    },
    async close() {
      const db = await opening?.catch(() => undefined)
      db?.close()
    },
  }
}
