import type { DatabaseSync, StatementSync } from 'node:sqlite'
import { VerifiedReviewsError } from '../base/errors.ts'
import { sharedPromise } from '../base/single-flight.ts'
import { busyTimeoutOf, openSqliteFile, transaction } from '../base/sqlite.ts'
import { membersOf } from '../base/validate.ts'
import {
  type MemoryOutboxStoreOptions,
  type OutboxRecord,
  OutboxState,
  outboxStoreOver,
} from './memory-store.ts'
import type { OutboxStore } from './store.ts'

/** Options of {@link createSqliteOutboxStore}. */
export interface SqliteOutboxStoreOptions extends MemoryOutboxStoreOptions {
  /**
   * Milliseconds a call waits for another process's call on the same file before it fails
   * (`database is locked`). Each call holds the file for one short transaction.
   * @default 5000
   */
  busyTimeout?: number
  /**
   * The journal of an outbox written by an earlier version (`createFileOutboxStore`, one JSON line per
   * change) to import once: when this outbox has never been written and that file exists, what waits in
   * it (events and dead letters) is copied in one transaction, then the file and its lock are removed.
   * Nothing that waited is lost and nothing is sent twice.
   */
  importJournal?: string
  /**
   * Where warnings go (unreadable lines of a journal being imported).
   * @default console
   */
  logger?: { warn(message: string): void }
}

/** The journal is rewritten once it holds this many records and four times more than its entries need. */
const COMPACT_AFTER = 1_000

interface Opened {
  db: DatabaseSync
  generation: StatementSync
  since: StatementSync
  append: StatementSync
}

/**
 * An {@link OutboxStore} in an SQLite file (Node's built-in `node:sqlite`), for one server: its
 * processes (workers, a drain in a separate job) share the file safely. Each call is one transaction
 * that takes the file's write lock (`BEGIN IMMEDIATE`), reads the changes other processes made since
 * its last call, decides, and appends its own changes as rows; the file is in WAL mode with
 * `synchronous = FULL`, so an event is on disk, a power loss included, once `add` has resolved. The
 * changes are rewritten as what waits once they are four times more than that, so the file stays in
 * proportion to what waits. The same file can hold the review store (`createSqliteReviewStore`): the
 * outbox's tables are `outbox_changes` and `outbox_generation`.
 *
 * The events hold customers' names and e-mails: the file, its WAL and SHM files are created readable
 * by their owner only (0600), and its folder, when this creates it, 0700. A file that exists keeps its
 * mode (`chmod 600` one an earlier version created).
 *
 * @param file The SQLite file; its folder is created when missing.
 */
export function createSqliteOutboxStore(file: string, options: SqliteOutboxStoreOptions = {}): OutboxStore {
  const busyTimeout = busyTimeoutOf('createSqliteOutboxStore', options.busyTimeout)
  const now = options.now ?? Date.now
  const logger = options.logger ?? console
  /** What this process has read: the state as of change `seq` of generation `generation`. */
  const unread = () => ({ state: new OutboxState(), generation: -1, seq: 0, changes: 0 })
  let seen = unread()

  const open = sharedPromise(async (): Promise<Opened> => {
    const db = await openSqliteFile(
      file,
      busyTimeout,
      'FULL',
      `CREATE TABLE IF NOT EXISTS outbox_changes (seq INTEGER PRIMARY KEY, json TEXT NOT NULL);
       CREATE TABLE IF NOT EXISTS outbox_generation (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
       INSERT OR IGNORE INTO outbox_generation (id, n) VALUES (1, 0);`,
      'private',
    )
    const opened: Opened = {
      db,
      generation: db.prepare('SELECT n FROM outbox_generation WHERE id = 1'),
      since: db.prepare('SELECT seq, json FROM outbox_changes WHERE seq > ? ORDER BY seq'),
      append: db.prepare('INSERT INTO outbox_changes (json) VALUES (?) RETURNING seq'),
    }
    if (options.importJournal !== undefined) await importJournal(opened, options.importJournal, logger)
    return opened
  })

  async function run<T>(operation: (state: OutboxState, at: number) => T): Promise<T> {
    const opened = await open()
    try {
      return transaction(opened.db, () => {
        // Brings `seen` up to the file's last change, then makes this call's changes.
        const current = Number((opened.generation.get() as { n: number }).n)
        if (current !== seen.generation) seen = { ...unread(), generation: current }
        for (const row of opened.since.all(seen.seq)) {
          seen.state.apply(JSON.parse(row.json as string) as OutboxRecord)
          seen.seq = Number(row.seq)
          seen.changes++
        }
        seen.state.changes = []
        const result = operation(seen.state, now())
        for (const record of seen.state.changes) {
          seen.seq = Number((opened.append.get(JSON.stringify(record)) as { seq: number }).seq)
          seen.changes++
        }
        const { state } = seen
        if (seen.changes > COMPACT_AFTER && seen.changes > 4 * (state.entries.size + state.dead.size + 1)) {
          const snapshot = state.snapshot()
          seen.seq = rewrite(opened, snapshot)
          seen.generation++
          seen.changes = snapshot.length
        }
        return result
      })
    } catch (error) {
      // What was applied in memory may not be in the file: read it all again next time.
      seen = unread()
      throw error
    }
  }

  return outboxStoreOver(run)
}

/**
 * Replaces every change with `records` (what waits) under a new generation, inside the transaction;
 * answers the last change's number.
 */
function rewrite({ db, append }: Opened, records: readonly OutboxRecord[]): number {
  db.exec('DELETE FROM outbox_changes; UPDATE outbox_generation SET n = n + 1 WHERE id = 1')
  let seq = 0
  for (const record of records) seq = Number((append.get(JSON.stringify(record)) as { seq: number }).seq)
  return seq
}

const RECORD_TYPES = new Set(['outbox', 'entry', 'claim', 'done', 'release', 'dead', 'dead-entry', 'forget'])

/**
 * Copies what waits in a journal file of the former file store into an outbox never written, in one
 * transaction, then removes the file: a crash before the commit leaves the outbox empty and the file
 * in place, so the next open imports it again.
 */
async function importJournal(
  opened: Opened,
  path: string,
  logger: { warn(message: string): void },
): Promise<void> {
  const { readFile, rm } = await import('node:fs/promises')
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  const lines = text.split('\n')
  // A last line without its end is what a crash left: the call that wrote it never completed.
  lines.pop()
  const records = lines.map((line) => {
    try {
      const record: unknown = JSON.parse(line)
      return RECORD_TYPES.has(membersOf(record).t as string) ? (record as OutboxRecord) : undefined
    } catch {
      return undefined
    }
  })
  const header = records[0]
  if (lines.length > 0 && (header?.t !== 'outbox' || header.v !== 1)) {
    throw new VerifiedReviewsError(
      `${path} is not an outbox journal (its first line is not {"t":"outbox","v":1}); nothing was imported`,
    )
  }
  const state = new OutboxState()
  for (const record of records) if (record !== undefined) state.apply(record)
  const unreadable = records.filter((record) => record === undefined).length
  const imported = transaction(opened.db, () => {
    const written =
      Number((opened.generation.get() as { n: number }).n) > 0 || opened.since.get(0) !== undefined
    if (!written) rewrite(opened, state.snapshot())
    return !written
  })
  if (!imported) return
  if (unreadable > 0)
    logger.warn(`@verified-reviews/core: ${path} had ${unreadable} unreadable line(s); they were skipped.`)
  await rm(`${path}.lock`, { force: true })
  await rm(path, { force: true })
}
