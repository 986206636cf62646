import type { DatabaseSync, StatementSync } from 'node:sqlite'
import type { ProductSummary } from '../../types/published.ts'
import { sharedPromise } from '../base/single-flight.ts'
import { openSqliteFile, transaction } from '../base/sqlite.ts'

/**
 * Where a site keeps the product summaries (rating, count, histogram, criteria, AI summary) that its
 * pages show beside the reviews: filled by the build, refreshed for the products whose reviews changed.
 */
export interface ProductSummaryStore {
  /** The summaries of `productIds`, in their order; undefined where none is held. */
  getMany(productIds: readonly string[]): Promise<(ProductSummary | undefined)[]>
  /** Stores the summaries, replacing those held for the same products. */
  putMany(summaries: readonly ProductSummary[]): Promise<void>
  /** Number of summaries held. */
  count(): Promise<number>
  /**
   * Forgets the summaries of `productIds` (those held; others are ignored): a sweep calls it for the
   * products the API no longer summarizes. Optional: without it, such a product keeps its last summary,
   * and each daily sweep names it among the changed (its page revalidated once a day).
   */
  removeMany?(productIds: readonly string[]): Promise<void>
}

/** A {@link ProductSummaryStore} in memory: tests and small sites. */
export function createMemorySummaryStore(): ProductSummaryStore {
  const held = new Map<string, string>()
  return {
    getMany: async (ids) =>
      ids.map((id) => {
        const json = held.get(id)
        return json === undefined ? undefined : (JSON.parse(json) as ProductSummary)
      }),
    async putMany(summaries) {
      for (const summary of summaries) held.set(summary.product_variation_id, JSON.stringify(summary))
    },
    count: async () => held.size,
    async removeMany(ids) {
      for (const id of ids) held.delete(id)
    },
  }
}

/** A {@link ProductSummaryStore} in an SQLite file, with what a file needs besides. */
export interface SqliteSummaryStore extends ProductSummaryStore {
  /** Every summary held. */
  all(): Promise<ProductSummary[]>
  /** Closes the file; the store must not be used afterwards. */
  close(): Promise<void>
}

/**
 * The table of the summaries, with its statements: a build writes it into its own file beside the
 * review store, so that the file is a whole replica (reviews, their sync mark and the summaries).
 */
export const SUMMARY_TABLE =
  'CREATE TABLE IF NOT EXISTS product_summaries (id TEXT PRIMARY KEY, json TEXT NOT NULL);'
const PUT_SUMMARY =
  'INSERT INTO product_summaries (id, json) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json'

/** Writes `summaries` into the summary table of `db` (which must have it), in the caller's transaction. */
export function putSummaryRows(db: DatabaseSync, summaries: readonly ProductSummary[]): void {
  const put = db.prepare(PUT_SUMMARY)
  for (const summary of summaries) put.run(summary.product_variation_id, JSON.stringify(summary))
}

interface Opened {
  db: DatabaseSync
  getMany: StatementSync
  put: StatementSync
  remove: StatementSync
  count: StatementSync
  all: StatementSync
}

/**
 * A {@link ProductSummaryStore} in the table `product_summaries` of an SQLite file (the file of a
 * review store may hold it too), opened on first use.
 */
export function createSqliteSummaryStore(file: string, busyTimeout = 5000): SqliteSummaryStore {
  let opening: Promise<Opened> | undefined
  const open = sharedPromise(async (): Promise<Opened> => {
    const db = await openSqliteFile(file, busyTimeout, 'NORMAL', SUMMARY_TABLE)
    return {
      db,
      getMany: db.prepare(
        'SELECT id, json FROM product_summaries WHERE id IN (SELECT value FROM json_each(?))',
      ),
      put: db.prepare(PUT_SUMMARY),
      remove: db.prepare('DELETE FROM product_summaries WHERE id IN (SELECT value FROM json_each(?))'),
      count: db.prepare('SELECT count(*) AS n FROM product_summaries'),
      all: db.prepare('SELECT json FROM product_summaries'),
    }
  })
  const use = () => {
    opening = open()
    return opening
  }
  return {
    async getMany(ids) {
      const { getMany } = await use()
      const found = new Map<string, string>()
      for (const row of getMany.all(JSON.stringify(ids))) found.set(row.id as string, row.json as string)
      return ids.map((id) => {
        const json = found.get(id)
        return json === undefined ? undefined : (JSON.parse(json) as ProductSummary)
      })
    },
    async putMany(summaries) {
      const { db, put } = await use()
      transaction(db, () => {
        for (const summary of summaries) put.run(summary.product_variation_id, JSON.stringify(summary))
      })
    },
    async removeMany(ids) {
      if (ids.length === 0) return
      const { remove } = await use()
      remove.run(JSON.stringify(ids))
    },
    async count() {
      const { count } = await use()
      return Number((count.get() as { n: number }).n)
    },
    async all() {
      const { all } = await use()
      return all.all().map((row) => JSON.parse(row.json as string) as ProductSummary)
    },
    async close() {
      const opened = await opening?.catch(() => undefined)
      opened?.db.close()
    },
  }
}
