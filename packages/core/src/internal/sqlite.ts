import type { DatabaseSync } from 'node:sqlite'
import { VerifiedReviewsError } from '../errors.ts'

/** How {@link openSqlite} opens a file. */
export interface SqliteOpenOptions {
  /** Milliseconds a write waits for another process's write to end before it throws (`database is locked`). */
  busyTimeout: number
  /**
   * `NORMAL`: in WAL mode a crash (not a power loss) loses nothing committed. `FULL`: a commit is on
   * disk before it returns, a power loss included (what an outbox promises).
   */
  synchronous: 'NORMAL' | 'FULL'
  /** Runs once the file is open, in WAL mode, before any other use (create tables, prepare statements). */
  setUp(db: DatabaseSync): void
}

/** Checks a `busyTimeout` option, naming the function it belongs to. */
export function busyTimeoutOf(owner: string, value: number | undefined): number {
  const busyTimeout = value ?? 5000
  if (!Number.isSafeInteger(busyTimeout) || busyTimeout < 0) {
    throw new VerifiedReviewsError(`${owner}: busyTimeout must be a whole number of milliseconds`)
  }
  return busyTimeout
}

/**
 * Opens an SQLite file through Node's built-in `node:sqlite` (loaded here, on first use, so that code
 * which never opens a file never loads it), creating its folder, in WAL mode (readers never wait for
 * the writer; several processes share the file safely).
 */
export async function openSqlite(file: string, options: SqliteOpenOptions): Promise<DatabaseSync> {
  const [{ DatabaseSync }, { mkdir }, { dirname }] = await Promise.all([
    import('node:sqlite'),
    import('node:fs/promises'),
    import('node:path'),
  ])
  await mkdir(dirname(file), { recursive: true })
  const db = new DatabaseSync(file)
  try {
    db.exec(`PRAGMA busy_timeout = ${options.busyTimeout}`)
    // Set before the first table (later it changes nothing): a page of 16 KiB holds some five reviews of
    // 3 KB where one of 4 KiB holds one, so the file is smaller and a page of reviews is written faster.
    db.exec('PRAGMA page_size = 16384')
    db.exec('PRAGMA journal_mode = WAL')
    db.exec(`PRAGMA synchronous = ${options.synchronous}`)
    options.setUp(db)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/**
 * Runs `write` in one transaction that takes the write lock at once (`BEGIN IMMEDIATE`: two processes
 * never both read then both write), committed when it returns and rolled back when it throws.
 */
export function transaction<T>(db: DatabaseSync, write: () => T): T {
  db.exec('BEGIN IMMEDIATE')
  try {
    const result = write()
    db.exec('COMMIT')
    return result
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK')
    throw error
  }
}
