import type { DatabaseSync, StatementSync } from 'node:sqlite'
import type { ProductReview } from '../../types/published.ts'
import { VerifiedReviewsError } from '../base/errors.ts'
import { sharedPromise } from '../base/single-flight.ts'
import { busyTimeoutOf, fileExists, openSqliteFile, transaction } from '../base/sqlite.ts'
import { rawJson, releaseAll } from '../transport/json-items.ts'
import { workerEncoder } from './encode-worker.ts'
import { readJsonFileStore } from './json-file-import.ts'
import {
  descending,
  groupOf,
  newestFirst,
  type ReviewStore,
  type ReviewStorePage,
  type ReviewStoreQuery,
  type SyncCheckpoint,
  type SyncedReview,
} from './store.ts'
import { loadStoredReviewCodec, type StoredReviewCodec } from './stored-review.ts'

/** Options of {@link createSqliteReviewStore}. */
export interface SqliteReviewStoreOptions {
  /**
   * Names this store's tables in the file (`<name>` and `<name>_checkpoint`), so that one file can hold
   * the product and the brand reviews: give them different names. Letters, digits and `_`.
   * @default 'reviews'
   */
  name?: string
  /**
   * Milliseconds a write waits for another process's write to the same file to end before it throws
   * (`database is locked`). The wait blocks the process's event loop, as every call of `node:sqlite` does.
   * @default 5000
   */
  busyTimeout?: number
  /**
   * A file of the JSON file store of earlier versions (`createJsonFileReviewStore`, removed) to import
   * once: when this store is empty (no review and no checkpoint) on first use and that file exists, its
   * reviews and checkpoint are copied in one transaction (all or nothing, so a crash leaves this store
   * empty and the next open imports again), then that file and its journal are removed. A store that
   * holds anything never imports; a sync then goes on from the imported checkpoint, without a full
   * resync. A file that is not such a store is refused (the open throws, naming it), and kept.
   */
  importJsonFileStore?: string
}

/** A {@link ReviewStore} in an SQLite file, with what a file needs besides. */
export interface SqliteReviewStore<R extends SyncedReview = ProductReview> extends ReviewStore<R> {
  /**
   * Every review held, read 1,000 at a time (by insertion order), so that memory stays flat however many
   * reviews the store holds; `all()` gives the same reviews as one array.
   */
  each(): AsyncGenerator<R>
  /** One page of a view, read through the index of its order. */
  query(query: ReviewStoreQuery): Promise<ReviewStorePage<R>>
  /**
   * Drops the two indexes of the views until the function it resolves to is called, which builds each
   * from the whole table: a full sync from an empty store writes 100,000 reviews some three times faster
   * so. Views read the same pages meanwhile, by scanning. A file whose bulk load never ended gets its
   * indexes when it is next opened. Meanwhile `putMany` holds the pages in memory and writes them
   * several at once, in one transaction (at 2,000 reviews, a second after the first page held at most,
   * at any other call, at the end of the load or on `close()`), which halves what a full sync writes to
   * disk: other connections to the file see a page once it is written, a write that fails throws from
   * the call that made it, and a process that dies loses the pages held (their checkpoint with them,
   * so that the next run walks them again).
   */
  bulkLoad(): Promise<() => Promise<void>>
  /** Closes the file; the store must not be used afterwards. */
  close(): Promise<void>
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/
/** Review ids bound to one query of `getMany`. */
const BATCH = 500
/** Reviews read at once by `each()`. */
const PAGE = 1000
/** Reviews of JSON text (written by earlier versions) put in the stored form per transaction, on opening. */
const COMPACT_BATCH = 500
/** How long an import started by another process is waited for: copying a million reviews takes minutes. */
const IMPORT_WAIT = 10 * 60_000
/**
 * Reviews a bulk load holds and writes in one transaction (ten pages of a sync), unless {@link BULK_MS}
 * passes first: a full sync of 100,000 reviews writes 864 MiB to disk so against 1,636 MiB a page at a
 * time, in 10.2 to 11.6 s against 12.9 to 14.4 s (alternating runs); 5,000 wrote 755 MiB in no less time.
 */
export const BULK_ROWS = 2000
/** Milliseconds a bulk load holds a page at most before it writes it. */
export const BULK_MS = 1000

interface Statements {
  get: StatementSync
  getMany: StatementSync
  put: StatementSync
  list: StatementSync
  keys: StatementSync
  ids: StatementSync
  remove: StatementSync
  page: StatementSync
  count: StatementSync
  getCheckpoint: StatementSync
  setCheckpoint: StatementSync
  /** The marks of the full runs (`markSeen`), in a table of their own. */
  seen: SeenStatements
}

interface SeenStatements {
  mark: StatementSync
  unseenKeys: StatementSync
  removeUnseen: StatementSync
  forget: StatementSync
  keysOf: StatementSync
  forgetIds: StatementSync
  countByKey: StatementSync
}

/**
 * The table of the marks a full sync leaves (`<name>_seen`: review id, generation of the run that last
 * saw it), apart from the reviews, so that marking a review that did not change writes a short row of
 * its own rather than the review's, and its statements.
 */
function seenStatements(db: DatabaseSync, name: string): SeenStatements {
  const seen = `"${name}_seen"`
  const unseen = `NOT EXISTS (SELECT 1 FROM ${seen} AS s WHERE s.id = r.id AND s.generation >= ?)`
  return {
    mark: db.prepare(
      `INSERT INTO ${seen} (id, generation) SELECT value, ? FROM json_each(?) WHERE true
       ON CONFLICT (id) DO UPDATE SET generation = max(generation, excluded.generation)`,
    ),
    unseenKeys: db.prepare(`SELECT DISTINCT r.key AS key FROM "${name}" AS r WHERE ${unseen}`),
    removeUnseen: db.prepare(`DELETE FROM "${name}" AS r WHERE ${unseen}`),
    forget: db.prepare(`DELETE FROM ${seen} WHERE generation <= ?`),
    keysOf: db.prepare(`SELECT DISTINCT key FROM "${name}" WHERE id IN (SELECT value FROM json_each(?))`),
    forgetIds: db.prepare(`DELETE FROM ${seen} WHERE id IN (SELECT value FROM json_each(?))`),
    countByKey: db.prepare(
      `SELECT key, count(*) AS n FROM "${name}" WHERE key IN (SELECT value FROM json_each(?)) GROUP BY key`,
    ),
  }
}

interface Opened {
  db: DatabaseSync
  sql: Statements
  codec: StoredReviewCodec
  /** `codec.encode` of many reviews, on the encoding worker for a page of a sync. */
  encodeMany: (jsons: readonly (string | Uint8Array)[]) => Promise<Uint8Array[]>
  /** The statements of `query`, made on first use, one per order, direction and rate filter. */
  views: Map<string, StatementSync>
}

/**
 * The indexes a view reads through, by name suffix and columns. The dates' index is in the order of the
 * newest first (what every page of reviews opens on), so that such a page streams its rows from the index
 * with no sort at all: the ascending index of earlier versions (`_by_date`) left SQLite to sort the ties of
 * each page, copying every row it read (the review too) through a temporary tree: a quarter of the time of
 * each page's read in a build (10,000 pages, caches as cold as between two renders).
 */
const VIEW_INDEXES = [
  ['newest', 'key, published DESC, id'],
  ['by_rate', 'key, rate, id'],
] as const

/**
 * Indexes of earlier versions, dropped when a file is opened: one of the key alone (`by_key`, which the
 * first column of either view index repeats) and the ascending dates' index (`by_date`).
 */
const RETIRED_INDEXES = ['by_key', 'by_date'] as const

/** The statements that make the view indexes of the table `name`, unless they are there. */
function createViewIndexes(name: string): string {
  return VIEW_INDEXES.map(
    ([suffix, columns]) => `CREATE INDEX IF NOT EXISTS "${name}_${suffix}" ON "${name}" (${columns});`,
  ).join('\n')
}

/** The statements that drop the indexes `suffixes` of the table `name`. */
function dropIndexes(name: string, suffixes: readonly string[]): string {
  return suffixes.map((suffix) => `DROP INDEX IF EXISTS "${name}_${suffix}";`).join('\n')
}

/** The columns a view sorts on, by order: epoch milliseconds of `publish_date`, or `review_rate`. */
const ORDER_COLUMN = { newest: 'published', oldest: 'published', highest: 'rate', lowest: 'rate' } as const

/**
 * The statement of one page of a view: the keys' reviews (a JSON list, or the key itself when `single`)
 * with the kept rates (a JSON list, when `rated`), past a position when `from` says which way, `limit`
 * rows in the order the page is read (reversed for `before`, so that the rows nearest the position come
 * first). One key is compared with `=`: SQLite then reads the rows in the index's order and stops at the
 * page's end, where a list of keys makes it sort every review of the products first (a third of the time
 * of a product page's first reviews, more for a product with many).
 */
export function viewSql(
  name: string,
  order: ReviewStoreQuery['order'],
  from: 'after' | 'before' | 'none' | 'exists-after' | 'exists-before',
  rated: boolean,
  single: boolean,
): string {
  const column = ORDER_COLUMN[order]
  const down = descending(order)
  // Reading backwards (`before`) flips the order and every comparison.
  const backwards = from === 'before' || from === 'exists-before'
  const valueGoes = down !== backwards ? 'DESC' : 'ASC'
  const idGoes = backwards ? 'DESC' : 'ASC'
  const valuePast = valueGoes === 'DESC' ? '<' : '>'
  const idPast = idGoes === 'DESC' ? '<' : '>'
  const where = [single ? 'key = ?' : `key IN (SELECT value FROM json_each(?))`]
  if (rated) where.push('rate IN (SELECT value FROM json_each(?))')
  if (from !== 'none') {
    // The rows past the position, or (`exists-…`, the other side) at or before it.
    const past = `(${column} ${valuePast} ? OR (${column} = ? AND id ${idPast} ?))`
    where.push(from.startsWith('exists') ? `NOT ${past}` : past)
  }
  const rows = from.startsWith('exists') ? 'SELECT 1' : 'SELECT review'
  return `${rows} FROM "${name}" WHERE ${where.join(' AND ')} ORDER BY ${column} ${valueGoes}, id ${idGoes} LIMIT ?`
}

/**
 * A {@link ReviewStore} in one SQLite file, through Node's built-in `node:sqlite` (no native build, no
 * dependency): the durable store for a server or a build that keeps its cache directory between runs,
 * shared safely by several processes (build workers) on one machine. Reviews are rows of one table (the
 * review id its primary key, the product id or shop key an indexed column, the review in its stored form:
 * its JSON compressed, see {@link StoredReviewCodec}), so `list(key)` reads one product's reviews through
 * the index and nothing holds the whole store in memory. `putMany` writes a page of reviews and its checkpoint in one transaction: all or nothing, and a
 * checkpoint never runs ahead of the reviews it counts. The file is in WAL mode: readers never wait,
 * writers of several processes take turns (waiting up to `busyTimeout`). The file and its directory are
 * created on first use; `node:sqlite` is loaded then too, so the rest of this entry also runs where there
 * is none (edge runtimes).
 *
 * @example
 * ```ts
 * import { createSqliteReviewStore, syncProductReviews } from '@verified-reviews/core/sync'
 *
 * const store = createSqliteReviewStore('.cache/reviews.sqlite', {
 *   importJsonFileStore: '.cache/product-reviews.json', // once, when upgrading from the JSON file store
 * })
 * await syncProductReviews(vr, { store })
 * const reviews = await store.list('SKU-1') // newest first
 * await store.close()
 * ```
 *
 * A file written by earlier versions, whose reviews are JSON text, is put in the stored form when it is
 * first opened, 500 reviews per transaction (some seconds per 100,000 reviews, once); the pages this
 * frees are reused by later writes (the file itself does not shrink).
 *
 * A path that holds a JSON file store (a `--store` or a file option written before SQLite became the
 * default store) is taken over in place: that file and its journal are renamed to `<file>.json-store`,
 * imported once as `importJsonFileStore` imports, then removed; the path is an SQLite file from then on.
 *
 * @param file The SQLite file (`<file>-wal` and `<file>-shm` beside it while it is open).
 */
export function createSqliteReviewStore<R extends SyncedReview = ProductReview>(
  file: string,
  options: SqliteReviewStoreOptions = {},
): SqliteReviewStore<R> {
  const name = options.name ?? 'reviews'
  if (!NAME.test(name)) {
    throw new VerifiedReviewsError(`createSqliteReviewStore: name must be letters, digits and _, not ${name}`)
  }
  const busyTimeout = busyTimeoutOf('createSqliteReviewStore', options.busyTimeout)
  let closed = false
  /** Whether a bulk load is under way: its writes store each review's JSON text, not compressed. */
  let bulk = false
  /** The last opening of the file a call awaited: what `close()` closes, never opening it only for that. */
  let opening: Promise<Opened> | undefined
  /** The pages of a bulk load not yet written (see `bulkPut`); undefined when none is held. */
  let held: HeldPages | undefined

  const open = sharedPromise(async (): Promise<Opened> => {
    const inPlace = await moveJsonFileStoreAside(file)
    const [db, codec] = await Promise.all([openSqliteFile(file, busyTimeout), loadStoredReviewCodec()])
    try {
      transaction(db, () => {
        db.exec(
          `CREATE TABLE IF NOT EXISTS "${name}" (id TEXT PRIMARY KEY, key TEXT NOT NULL, review BLOB NOT NULL,
             published INTEGER, rate INTEGER);
           CREATE TABLE IF NOT EXISTS "${name}_checkpoint" (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);`,
        )
        db.exec(
          `CREATE TABLE IF NOT EXISTS "${name}_seen" (id TEXT PRIMARY KEY, generation INTEGER NOT NULL) WITHOUT ROWID;`,
        )
        addViewColumns(db, name, codec)
        // A view reads one product's reviews in its order through one of these, `list` through either's
        // first column. A bulk load that did not end (its process died) left them out: they are made again here.
        db.exec(`${dropIndexes(name, RETIRED_INDEXES)}\n${createViewIndexes(name)}`)
      })
      await compactJsonRows(db, name, codec)
      const sql: Statements = {
        get: db.prepare(`SELECT review FROM "${name}" WHERE id = ?`),
        getMany: db.prepare(`SELECT id, review FROM "${name}" WHERE id IN (SELECT value FROM json_each(?))`),
        put: db.prepare(
          `INSERT INTO "${name}" (id, key, review, published, rate) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET key = excluded.key, review = excluded.review,
             published = excluded.published, rate = excluded.rate`,
        ),
        list: db.prepare(`SELECT review FROM "${name}" WHERE key = ?`),
        keys: db.prepare(`SELECT DISTINCT key FROM "${name}"`),
        ids: db.prepare(`SELECT id, key FROM "${name}"`),
        remove: db.prepare(`DELETE FROM "${name}" WHERE id IN (SELECT value FROM json_each(?))`),
        page: db.prepare(`SELECT rowid, review FROM "${name}" WHERE rowid > ? ORDER BY rowid LIMIT ${PAGE}`),
        count: db.prepare(`SELECT count(*) AS n FROM "${name}"`),
        getCheckpoint: db.prepare(`SELECT json FROM "${name}_checkpoint" WHERE id = 1`),
        setCheckpoint: db.prepare(
          `INSERT INTO "${name}_checkpoint" (id, json) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json`,
        ),
        seen: seenStatements(db, name),
      }
      const opened: Opened = { db, sql, codec, encodeMany: workerEncoder(codec), views: new Map() }
      const source = inPlace ?? options.importJsonFileStore
      if (source !== undefined) await importJsonFileStore(opened, source, busyTimeout)
      return opened
    } catch (error) {
      db.close()
      throw error
    }
  })

  /** A failed write of a bulk load's held pages by its timer, thrown by the next call. */
  let bulkFailure: unknown

  /**
   * Writes the pages a bulk load holds, in one transaction (all or nothing: on failure they are dropped
   * with their checkpoint, as a page whose transaction failed, and the error thrown).
   */
  const writeHeld = (opened: Opened): void => {
    const pages = held
    if (pages === undefined) return
    held = undefined
    clearTimeout(pages.timer)
    writeRows(opened, pages.rows, pages.checkpoint)
  }

  /**
   * Holds a bulk load's page (its reviews' JSON copied, since the sync frees the page's body once this
   * returns) with its checkpoint, and writes what it holds in one transaction once that reaches
   * {@link BULK_ROWS} reviews, or {@link BULK_MS} after the first page held (by a timer), or at the next
   * call of another kind, at the end of the load or on `close()`. Fewer, larger transactions write each
   * page of the id index once for many pages of the sync rather than once per page (random ids touch a
   * page of it for almost every review). No transaction stays open while the sync waits for the API, so
   * other connections to the file, in this process too, never wait for one.
   */
  const bulkPut = (
    opened: Opened,
    reviews: readonly R[],
    json: readonly Stored[],
    checkpoint?: SyncCheckpoint,
  ) => {
    if (held === undefined) {
      const timer = setTimeout(() => {
        try {
          writeHeld(opened)
        } catch (error) {
          bulkFailure = error
        }
      }, BULK_MS)
      timer.unref()
      held = { rows: new Map(), checkpoint: undefined, timer }
    }
    const copies = copyAll(json)
    for (const [i, review] of reviews.entries())
      held.rows.set(review.review_id, rowOf(review, copies[i] as Stored))
    if (checkpoint !== undefined) held.checkpoint = checkpoint
    if (held.rows.size >= BULK_ROWS) writeHeld(opened)
  }

  /**
   * The opened file, the pages a bulk load holds written first, unless `inBulk` (`getMany` reads them
   * where they are, `putMany` adds to them).
   */
  const use = async (inBulk = false): Promise<Opened> => {
    if (closed) throw new VerifiedReviewsError(`The review store ${file} is closed`)
    opening = open()
    const opened = await opening
    if (bulkFailure !== undefined) {
      const failure = bulkFailure
      bulkFailure = undefined
      throw failure
    }
    if (!inBulk) writeHeld(opened)
    return opened
  }

  async function* each(): AsyncGenerator<R> {
    const { sql, codec } = await use()
    let after = 0
    for (;;) {
      const rows = sql.page.all(after)
      for (const row of rows) yield codec.decode<R>(row.review as Stored)
      if (rows.length < PAGE) return
      after = (rows[rows.length - 1] as { rowid: number }).rowid
    }
  }

  return {
    async get(reviewId) {
      const { sql, codec } = await use()
      const row = sql.get.get(reviewId)
      return row === undefined ? undefined : codec.decode<R>(row.review as Stored)
    },
    async getMany(reviewIds) {
      const { sql, codec } = await use(true)
      const found = new Map<string, Stored>()
      for (let start = 0; start < reviewIds.length; start += BATCH) {
        const ids = JSON.stringify(reviewIds.slice(start, start + BATCH))
        for (const row of sql.getMany.all(ids)) found.set(row.id as string, row.review as Stored)
      }
      // A bulk load's pages not yet written: newer than the file's rows.
      if (held !== undefined) {
        for (const id of reviewIds) {
          const [, stored] = held.rows.get(id) ?? []
          if (stored !== undefined) found.set(id, stored)
        }
      }
      // Decoded once per id asked, so a review asked twice is two copies, as from every other store.
      return reviewIds.map((id) => {
        const stored = found.get(id)
        return stored === undefined ? undefined : codec.decode<R>(stored)
      })
    },
    async has(reviewId) {
      const { sql } = await use()
      return sql.get.get(reviewId) !== undefined
    },
    async putMany(reviews, checkpoint) {
      const opened = await use(true)
      // The JSON the API sent when the review came from a sync's page.
      const json = reviews.map((review) => rawJson.get(review) ?? JSON.stringify(review))
      // A bulk load stores that text as it is (the codec reads it back): compressing every review of the
      // account is most of the CPU of a first sync. Else encoded before the transaction, which then holds
      // the file's write lock for the writes alone, on the encoding worker for a sync's page (while this
      // thread takes in the next page). Decided once: a bulk load may start or end while the worker encodes.
      const encoded = bulk ? undefined : await opened.encodeMany(json)
      if (encoded === undefined) {
        bulkPut(opened, reviews, json, checkpoint)
        return
      }
      // A bulk load that began while the worker encoded: its pages go first.
      writeHeld(opened)
      writeRows(
        opened,
        reviews.map((review, i) => [review.review_id, rowOf(review, encoded[i] as Stored)]),
        checkpoint,
      )
      // The worker's answer is one buffer for the page: freed now that its rows are written (never the
      // page bodies a bulk load's text views, which the sync frees itself).
      releaseAll(encoded)
    },
    async list(key) {
      const { sql, codec } = await use()
      return sql.list
        .all(key)
        .map((row) => codec.decode<R>(row.review as Stored))
        .sort(newestFirst)
    },
    async removeExcept(kept) {
      const { db, sql } = await use()
      const removed: string[] = []
      const groups = new Set<string>()
      // Ids and keys only: no review is read.
      for (const row of sql.ids.iterate()) {
        if (kept.has(row.id as string)) continue
        removed.push(row.id as string)
        groups.add(row.key as string)
      }
      transaction(db, () => {
        for (let start = 0; start < removed.length; start += BATCH) {
          sql.remove.run(JSON.stringify(removed.slice(start, start + BATCH)))
        }
      })
      return [...groups].sort()
    },
    async markSeen(reviewIds, generation) {
      const { sql } = await use()
      for (let start = 0; start < reviewIds.length; start += BATCH) {
        sql.seen.mark.run(generation, JSON.stringify(reviewIds.slice(start, start + BATCH)))
      }
    },
    async removeUnseen(generation) {
      const { db, sql } = await use()
      // In SQLite, row by row: no id is held in memory.
      return transaction(db, () => {
        const keys = sql.seen.unseenKeys.all(generation).map((row) => row.key as string)
        sql.seen.removeUnseen.run(generation)
        sql.seen.forget.run(generation)
        return keys.sort()
      })
    },
    async removeMany(reviewIds) {
      const { db, sql } = await use()
      const keys = new Set<string>()
      transaction(db, () => {
        for (let start = 0; start < reviewIds.length; start += BATCH) {
          const ids = JSON.stringify(reviewIds.slice(start, start + BATCH))
          for (const row of sql.seen.keysOf.all(ids)) keys.add(row.key as string)
          sql.remove.run(ids)
          sql.seen.forgetIds.run(ids)
        }
      })
      return [...keys].sort()
    },
    async countByKey(keys) {
      const { sql } = await use()
      const counts = new Map<string, number>()
      for (let start = 0; start < keys.length; start += BATCH) {
        for (const row of sql.seen.countByKey.all(JSON.stringify(keys.slice(start, start + BATCH))))
          counts.set(row.key as string, Number(row.n))
      }
      return keys.map((key) => counts.get(key) ?? 0)
    },
    async query(query) {
      return viewPage<R>(await use(), name, query)
    },
    async bulkLoad() {
      const opened = await use()
      const { db } = opened
      // Inserting each review of a full sync into both indexes, in the random order of products, is
      // most of its writing: a table without them takes 100,000 reviews in a third of the time, and
      // each index is then built by one sort of the table.
      transaction(db, () =>
        db.exec(
          dropIndexes(
            name,
            VIEW_INDEXES.map(([suffix]) => suffix),
          ),
        ),
      )
      bulk = true
      let ended = false
      return async () => {
        if (ended) return
        ended = true
        bulk = false
        // A store closed meanwhile wrote its pages, and gets the indexes when its file is next opened.
        if (closed) return
        writeHeld(opened)
        transaction(db, () => db.exec(createViewIndexes(name)))
      }
    },
    async keys() {
      const { sql } = await use()
      // Sorted here, as strings sort in JavaScript (SQLite compares UTF-8 bytes, which differs past U+FFFF).
      return sql.keys
        .all()
        .map((row) => row.key as string)
        .sort()
    },
    async all() {
      const reviews: R[] = []
      for await (const review of each()) reviews.push(review)
      return reviews
    },
    each,
    async count() {
      const { sql } = await use()
      return Number((sql.count.get() as { n: number }).n)
    },
    async getCheckpoint() {
      const { sql } = await use()
      return parseRow<SyncCheckpoint>(sql.getCheckpoint.get())
    },
    async setCheckpoint(checkpoint) {
      const { sql } = await use()
      sql.setCheckpoint.run(JSON.stringify(checkpoint))
    },
    async close() {
      if (closed) return
      closed = true
      // A file that failed to open has nothing to close.
      const opened = await opening?.catch(() => undefined)
      if (opened === undefined) return
      // The pages a bulk load holds are written.
      try {
        writeHeld(opened)
      } finally {
        opened.db.close()
      }
    },
  }
}

/**
 * When `file` is a JSON file store (a path that held one before SQLite became the default store),
 * renames it and its journal to `<file>.json-store` (and `.journal`), so that the SQLite file takes
 * its path and imports it; answers that path while such a file is there to import.
 */
async function moveJsonFileStoreAside(file: string): Promise<string | undefined> {
  const { open, rename } = await import('node:fs/promises')
  const aside = `${file}.json-store`
  const head = new Uint8Array(64)
  const read = await open(file, 'r').then(
    async (handle) => {
      try {
        return (await handle.read(head, 0, head.length, 0)).bytesRead
      } finally {
        await handle.close()
      }
    },
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw error
    },
  )
  const jsonStore =
    read !== undefined && new TextDecoder().decode(head.subarray(0, read)).includes(JSON_STORE)
  if (jsonStore || (read === undefined && (await fileExists(`${file}.journal`)))) {
    const move = (from: string, to: string) =>
      rename(from, to).catch((error: NodeJS.ErrnoException) => {
        // Another process opening the same file moved it first.
        if (error.code !== 'ENOENT') throw error
      })
    await move(file, aside)
    await move(`${file}.journal`, `${aside}.journal`)
  }
  return (await fileExists(aside)) || (await fileExists(`${aside}.journal`)) ? aside : undefined
}

/** What the first line of a JSON file store names. */
const JSON_STORE = '"verified-reviews/review-store"'

/** A review as a row holds it: the stored form (a BLOB), or the JSON text earlier versions wrote. */
type Stored = Uint8Array | string

function parseRow<T>(row: Record<string, unknown> | undefined): T | undefined {
  return row === undefined ? undefined : (JSON.parse(row.json as string) as T)
}

/**
 * Copies a JSON file store into an empty store, review by review as they are read (memory stays
 * flat), in one transaction, then removes the JSON file and its journal. Another process importing the
 * same file at the same time is waited for; it finds the store no longer empty and imports nothing.
 */
async function importJsonFileStore(
  { db, sql, codec }: Opened,
  path: string,
  busyTimeout: number,
): Promise<void> {
  const { rm } = await import('node:fs/promises')
  if (!(await fileExists(path)) && !(await fileExists(`${path}.journal`))) return
  db.exec(`PRAGMA busy_timeout = ${Math.max(busyTimeout, IMPORT_WAIT)}`)
  try {
    db.exec('BEGIN IMMEDIATE')
  } finally {
    db.exec(`PRAGMA busy_timeout = ${busyTimeout}`)
  }
  try {
    const empty = sql.getCheckpoint.get() === undefined && Number((sql.count.get() as { n: number }).n) === 0
    if (!empty) {
      db.exec('ROLLBACK')
      return
    }
    const checkpoint = await readJsonFileStore(path, (review) => {
      sql.put.run(review.review_id, ...rowOf(review, codec.encode(JSON.stringify(review))))
    })
    if (checkpoint !== undefined) sql.setCheckpoint.run(JSON.stringify(checkpoint))
    db.exec('COMMIT')
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK')
    throw error
  }
  // Once committed, the JSON file is never read again: a crash before these leaves it, unread, behind.
  await rm(`${path}.journal`, { force: true })
  await rm(path, { force: true })
}

/** The pages a bulk load holds until it writes them (see `bulkPut` in {@link createSqliteReviewStore}). */
interface HeldPages {
  /**
   * The rows to write, by review id: a review held twice keeps its later row (ids are independent, so
   * writing each id's latest row is writing every row in order); `getMany` reads them here.
   */
  rows: Map<string, Row>
  /** The checkpoint of the last page held that had one. */
  checkpoint: SyncCheckpoint | undefined
  /** Writes them {@link BULK_MS} after the first page. */
  timer: ReturnType<typeof setTimeout>
}

/**
 * Copies of the JSON of a page's reviews that outlive the page's body: the bytes in one new buffer (one
 * allocation a page), strings as they are.
 */
function copyAll(json: readonly Stored[]): Stored[] {
  let length = 0
  for (const item of json) if (typeof item !== 'string') length += item.length
  const buffer = new Uint8Array(length)
  let at = 0
  return json.map((item) => {
    if (typeof item === 'string') return item
    buffer.set(item, at)
    at += item.length
    return buffer.subarray(at - item.length, at)
  })
}

/** A review's row but its id, in the order of the table's columns (`sql.put` takes the id, then these). */
type Row = [key: string, stored: Stored, published: number, rate: number | null]

/** The row of `review`, stored as `stored`. */
function rowOf(review: SyncedReview, stored: Stored): Row {
  return [groupOf(review), stored, ...viewColumns(review)]
}

/**
 * Writes rows (by review id) and the checkpoint that counts them in one transaction: a checkpoint never
 * runs ahead of the reviews it counts, and a failure writes neither.
 */
function writeRows(
  { db, sql }: Opened,
  rows: Iterable<[id: string, row: Row]>,
  checkpoint: SyncCheckpoint | undefined,
): void {
  transaction(db, () => {
    for (const [id, row] of rows) sql.put.run(id, ...row)
    if (checkpoint !== undefined) sql.setCheckpoint.run(JSON.stringify(checkpoint))
  })
}

/** The columns a view sorts on, of one review; a date that does not parse sorts as the oldest (a review without a rate has none). */
function viewColumns(review: SyncedReview): [number, number | null] {
  const published = Date.parse(review.publish_date)
  const rate = review.review_rate
  return [Number.isNaN(published) ? 0 : published, typeof rate === 'number' ? rate : null]
}

/** The names of a table's columns. */
function columnsOf(db: DatabaseSync, name: string): Set<string> {
  return new Set(
    db
      .prepare(`SELECT name FROM pragma_table_info('${name}')`)
      .all()
      .map((column) => column.name as string),
  )
}

/**
 * Adds the view columns to a table written before views read the store, filled from each review, in the
 * transaction that opens the file (once: a file that has them is left as it is).
 */
function addViewColumns(db: DatabaseSync, name: string, codec: StoredReviewCodec): void {
  const columns = columnsOf(db, name)
  if (columns.has('published')) return
  db.exec(
    `ALTER TABLE "${name}" ADD COLUMN published INTEGER;
     ALTER TABLE "${name}" ADD COLUMN rate INTEGER;`,
  )
  const column = columns.has('json') ? 'json' : 'review'
  const update = db.prepare(`UPDATE "${name}" SET published = ?, rate = ? WHERE id = ?`)
  for (const row of db.prepare(`SELECT id, ${column} AS review FROM "${name}"`).iterate()) {
    update.run(...viewColumns(codec.decode<SyncedReview>(row.review as Stored)), row.id as string)
  }
}

/**
 * Puts the reviews of a table that earlier versions wrote (their JSON as text, in a column `json`) in the
 * stored form, {@link COMPACT_BATCH} per transaction so that other processes' writes take turns with it,
 * then renames that column `review`, in the last transaction: a table with a column `review` holds no
 * JSON text, and is never read whole again to find some. Another process opening the file at once does
 * the same on the rows this one has not reached, and stops when it finds the column renamed.
 */
async function compactJsonRows(db: DatabaseSync, name: string, codec: StoredReviewCodec): Promise<void> {
  if (!columnsOf(db, name).has('json')) return
  let after = 0
  for (;;) {
    const done = transaction(db, () => {
      if (!columnsOf(db, name).has('json')) return true
      const rows = db
        .prepare(
          `SELECT rowid, id, json FROM "${name}" WHERE rowid > ? AND typeof(json) = 'text'
           ORDER BY rowid LIMIT ${COMPACT_BATCH}`,
        )
        .all(after)
      const update = db.prepare(`UPDATE "${name}" SET json = ? WHERE rowid = ?`)
      for (const row of rows) update.run(codec.encode(row.json as string), row.rowid as number)
      if (rows.length === COMPACT_BATCH) {
        after = (rows[rows.length - 1] as { rowid: number }).rowid
        return false
      }
      db.exec(`ALTER TABLE "${name}" RENAME COLUMN json TO review`)
      return true
    })
    if (done) return
    // The event loop runs between two transactions.
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/** One page of a view, through the index of its order: the page's rows, and one row on each side. */
function viewPage<R>(
  { db, views, codec }: Opened,
  name: string,
  query: ReviewStoreQuery,
): ReviewStorePage<R> {
  const { keys, order, rates, from, limit } = query
  const single = keys.length === 1
  const statement = (kind: Parameters<typeof viewSql>[2]) => {
    const id = `${order} ${kind} ${rates.length > 0} ${single}`
    let prepared = views.get(id)
    if (prepared === undefined) {
      prepared = db.prepare(viewSql(name, order, kind, rates.length > 0, single))
      views.set(id, prepared)
    }
    return prepared
  }
  const filters: (string | number)[] = [single ? (keys[0] as string) : JSON.stringify(keys)]
  if (rates.length > 0) filters.push(JSON.stringify(rates))
  const at = from === undefined ? [] : [from.position.value, from.position.value, from.position.id]
  const rows = statement(from?.direction ?? 'none').all(...filters, ...at, limit + 1)
  const data = rows.slice(0, limit).map((row) => codec.decode<R>(row.review as Stored))
  const beyond = rows.length > limit
  // Whether anything lies on the other side of the position the page was read from.
  const behind =
    from !== undefined && statement(`exists-${from.direction}`).get(...filters, ...at, 1) !== undefined
  if (from?.direction === 'before') return { data: data.reverse(), more: behind, less: beyond }
  return { data, more: beyond, less: behind }
}
