import type { DatabaseSync } from 'node:sqlite'
import { VerifiedReviewsError } from './errors.ts'

/** Checks a `busyTimeout` option, naming the function it belongs to. */
export function busyTimeoutOf(owner: string, value: number | undefined): number {
  const busyTimeout = value ?? 5000
  if (!Number.isSafeInteger(busyTimeout) || busyTimeout < 0) {
    throw new VerifiedReviewsError(`${owner}: busyTimeout must be a whole number of milliseconds`)
  }
  return busyTimeout
}

/**
 * `node:sqlite`, loaded without the one `ExperimentalWarning: SQLite is an experimental feature` that
 * Node before 24.15 prints on loading it (a build log's warning line, and nothing the user can act on);
 * every other warning goes through.
 */
async function loadSqlite(): Promise<typeof import('node:sqlite')> {
  const emitWarning = process.emitWarning
  process.emitWarning = ((warning: string | Error, ...rest: never[]) => {
    const message = typeof warning === 'string' ? warning : warning.message
    if (!message.startsWith('SQLite is an experimental feature')) emitWarning.call(process, warning, ...rest)
  }) as typeof process.emitWarning
  try {
    return await import('node:sqlite')
  } finally {
    process.emitWarning = emitWarning
  }
}

/**
 * Opens (creating it and its directory when missing) an SQLite file as every user of this package
 * does: WAL (readers never wait, writers of several processes take turns), `synchronous` NORMAL or FULL,
 * pages of 16 KiB, writes waiting up to `busyTimeout` for another process's, then `schema` (its
 * `CREATE … IF NOT EXISTS`) run in one transaction. `node:sqlite` is loaded here, on first use, so the
 * entries that import this also load where there is none (edge runtimes).
 *
 * `access`: `'private'` for a file that holds personal data (the outbox's customers' names and
 * e-mails): a file it creates is readable by its owner only (0600, whatever the umask), and so are its
 * WAL and SHM files (SQLite gives them the mode of the database file), and the folders it creates are
 * 0700. A file or folder that exists keeps its mode. `'shared'`: the umask's modes (a replica holds
 * public reviews).
 */
export async function openSqliteFile(
  file: string,
  busyTimeout: number,
  synchronous: 'NORMAL' | 'FULL' = 'NORMAL',
  schema?: string,
  access: 'shared' | 'private' = 'shared',
): Promise<DatabaseSync> {
  const [{ DatabaseSync }, fs, path] = await Promise.all([
    loadSqlite(),
    import('node:fs/promises'),
    import('node:path'),
  ])
  const folder = path.dirname(file)
  if (access === 'private') {
    // The modes are set after creating, since mkdir's and open's are narrowed by the umask.
    const first = await fs.mkdir(folder, { recursive: true, mode: 0o700 })
    if (first !== undefined) {
      let created = first
      for (const part of ['', ...path.relative(first, folder).split(path.sep).filter(Boolean)]) {
        created = path.join(created, part)
        await fs.chmod(created, 0o700)
      }
    }
    try {
      const handle = await fs.open(file, 'wx', 0o600)
      try {
        await handle.chmod(0o600)
      } finally {
        await handle.close()
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  } else await fs.mkdir(folder, { recursive: true })
  const db = new DatabaseSync(file)
  try {
    db.exec(`PRAGMA busy_timeout = ${busyTimeout}`)
    // Set before the first table (later it changes nothing): a page of 16 KiB holds some five reviews of
    // 3 KB where one of 4 KiB holds one, so the file is smaller and a page of reviews is written faster.
    db.exec('PRAGMA page_size = 16384')
    db.exec('PRAGMA journal_mode = WAL')
    // NORMAL: in WAL mode a crash (not a power loss) loses nothing committed, and the file always stays
    // whole. FULL: a commit is on disk before it returns, a power loss included (what an outbox promises).
    db.exec(`PRAGMA synchronous = ${synchronous}`)
    // A sync writes each review into two indexes in random order (its id, its product): with 8 MiB of
    // page cache instead of 2, and a checkpoint every 4,000 pages (64 MiB of WAL) instead of 1,000, a
    // sync of 100,000 reviews writes 2.4 times faster (15.6 s → 6.5 s) for some 6 MiB more memory.
    db.exec('PRAGMA cache_size = -8192')
    db.exec('PRAGMA wal_autocheckpoint = 4000')
    if (schema !== undefined) transaction(db, () => db.exec(schema))
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

/** Whether a file is there (`node:fs` is loaded when first needed, as `node:sqlite` is). */
export async function fileExists(path: string): Promise<boolean> {
  const { access } = await import('node:fs/promises')
  return access(path).then(
    () => true,
    () => false,
  )
}
