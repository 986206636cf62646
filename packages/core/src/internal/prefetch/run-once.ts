import type { DatabaseSync } from 'node:sqlite'
import { VerifiedReviewsError } from '../base/errors.ts'
import type { SharedLock } from '../base/shared-state.ts'
import { transaction } from '../base/sqlite.ts'

/** Told, while a process waits for another one's run, what holds the run and how long it has waited. */
export type WaitListener = (holder: string, waitedMs: number) => void

/** Milliseconds between two reports of a wait. */
const WAIT_REPORT_INTERVAL = 30_000

/** What a run answers: its value, and whether this process produced it. */
interface Ran<T> {
  value: T
  produced: boolean
}

/** How a process waits for another one's run. */
interface WaitOptions {
  /** Milliseconds a process waits for another one's run. */
  waitTimeout: number
  /** Milliseconds between two looks at the run while waiting (doubling up to 8 times that). */
  pollInterval: number
  signal?: AbortSignal | undefined
  /** Told what this process waits for: when it starts waiting, then every 30 seconds. */
  onWait?: WaitListener | undefined
}

/**
 * Calls `attempt` until it answers `done`, waiting between two calls and telling `onWait` what holds
 * the run (when `attempt` names it: at the first wait, then every {@link WAIT_REPORT_INTERVAL});
 * throws `giveUp` once `waitTimeout` has passed.
 */
async function retryUntilDone<T>(
  options: WaitOptions,
  giveUp: string,
  attempt: () => Promise<{ done: T } | { holder: string | undefined }>,
): Promise<T> {
  const deadline = Date.now() + options.waitTimeout
  let delay = options.pollInterval
  let waitStarted: number | undefined
  let nextReport = 0
  for (;;) {
    options.signal?.throwIfAborted()
    const tried = await attempt()
    if ('done' in tried) return tried.done
    const now = Date.now()
    if (tried.holder !== undefined && options.onWait !== undefined && now >= nextReport) {
      waitStarted ??= now
      nextReport = now + WAIT_REPORT_INTERVAL
      options.onWait(tried.holder, now - waitStarted)
    }
    if (now >= deadline)
      throw new VerifiedReviewsError(`gave up after waiting ${options.waitTimeout} ms ${giveUp}`)
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(0, deadline - Date.now()))))
    delay = Math.min(delay * 2, options.pollInterval * 8)
  }
}

function failureText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

/** Whether the process `pid` of this host is running. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** A run as the `runs` table of the file holds it. */
interface RunRow {
  state: 'running' | 'done' | 'failed'
  pid: number
  host: string
  /** Milliseconds since the epoch. */
  since: number
  /** What the run produced (done), or why it failed (failed). */
  json: string | null
}

/** The process that holds a run. */
export interface RunHolder {
  pid: number
  host: string
  /** Milliseconds since the epoch. */
  since: number
}

const RUNS = `CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY, state TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL, since INTEGER NOT NULL, json TEXT)`

/** Records in `db` that `holder` runs `name` (replacing a run left stale). */
export function holdRun(db: DatabaseSync, name: string, holder: RunHolder): void {
  db.exec(RUNS)
  db.prepare(
    `INSERT INTO runs (id, state, pid, host, since, json) VALUES (?, 'running', ?, ?, ?, NULL)
     ON CONFLICT (id) DO UPDATE SET state = 'running', pid = excluded.pid, host = excluded.host,
       since = excluded.since, json = NULL`,
  ).run(name, holder.pid, holder.host, holder.since)
}

/** Options of {@link runOnce}. */
export interface RunOnceOptions extends WaitOptions {
  /** The SQLite file the processes share (open in this process), which records the run. */
  db: DatabaseSync
  /** Names the run in it (a build id); a run done or failed stays so for this name. */
  name: string
  /** The file's path, for messages. */
  file: string
  /**
   * Runs once, in the process that takes the run: writes its data in `db` and answers the text the
   * others read once it is done (a summary of it, not the data).
   */
  produce: () => Promise<string>
  /** Milliseconds after which a run is taken over even if its process seems alive (another host, a hung run). */
  staleLockTimeout: number
  /**
   * A failure of `produce` is not recorded: the run is let go, so that the next process to call takes
   * it and runs `produce` itself (a run made ahead of the processes that need it).
   */
  releaseOnFailure?: boolean | undefined
}

/**
 * Makes exactly one of the processes that call it at once run `produce`; the others wait for it and
 * read what it answered. The run is a row of the SQLite file they share, taken in a `BEGIN IMMEDIATE`
 * transaction (one process at a time looks and takes) with the holder's pid, host and start: a run whose
 * process is gone (same host), or older than `staleLockTimeout`, is taken over. A failure is recorded
 * too, so that the processes waiting fail with it instead of running again (with `releaseOnFailure`,
 * the run is let go instead, and the next process to look takes it).
 */
export async function runOnce(options: RunOnceOptions): Promise<Ran<string>> {
  const { db, name } = options
  const { hostname } = await import('node:os')
  const host = hostname()
  db.exec(RUNS)
  const read = db.prepare('SELECT state, pid, host, since, json FROM runs WHERE id = ?')
  const finish = db.prepare('UPDATE runs SET state = ?, json = ? WHERE id = ? AND pid = ? AND since = ?')
  const release = db.prepare('DELETE FROM runs WHERE id = ? AND pid = ? AND since = ?')
  const look = () => read.get(name) as RunRow | undefined
  const stale = (row: RunRow) =>
    Date.now() - row.since > options.staleLockTimeout || (row.host === host && !processAlive(row.pid))
  const where = `${name} in ${options.file}`
  return retryUntilDone<Ran<string>>(options, `for another process running ${where}`, async () => {
    const row = look()
    if (row?.state === 'done') return { done: { value: row.json ?? '', produced: false } }
    if (row?.state === 'failed') {
      throw new VerifiedReviewsError(
        `the prefetch failed in process ${row.pid}: ${row.json ?? 'unknown error'} (${where})`,
      )
    }
    // Looked at again under the write lock: another process may have taken it since.
    const mine =
      (row === undefined || stale(row)) &&
      transaction(db, () => {
        const now = look()
        if (now !== undefined && (now.state !== 'running' || !stale(now))) return undefined
        const holder = { pid: process.pid, host, since: Date.now() }
        holdRun(db, name, holder)
        return holder
      })
    if (mine) {
      let value: string
      try {
        value = await options.produce()
      } catch (error) {
        if (options.releaseOnFailure === true) release.run(name, mine.pid, mine.since)
        else finish.run('failed', failureText(error), name, mine.pid, mine.since)
        throw error
      }
      finish.run('done', value, name, mine.pid, mine.since)
      return { done: { value, produced: true } }
    }
    const holder = look()
    const running = holder?.state === 'running'
    return { holder: running ? `process ${holder.pid} on ${holder.host} (${where})` : undefined }
  })
}

/**
 * Where the processes of one build meet when they do not share a directory (build workers on several
 * machines): a store such as Redis (`createRedisPrefetchShare()` of `@verified-reviews/redis`).
 */
export interface PrefetchShare {
  /** The text stored under `name`, or undefined when there is none. */
  get(name: string): Promise<string | undefined>
  /** Stores `text` under `name` (for the length of a build at least). */
  set(name: string, text: string): Promise<void>
  /**
   * Takes the lock of `name` for this process, or resolves undefined when another process holds it.
   * A lock whose holder dies must expire by itself (while its holder lives, the store keeps it).
   */
  lock(name: string): Promise<SharedLock | undefined>
}

/** Options of {@link runOnceShared}. */
export interface RunOnceSharedOptions<T> extends WaitOptions {
  share: PrefetchShare
  /** Names the result in the share; the lock and the failure note are named after it. */
  name: string
  /** Reads a result stored by a finished run; undefined when it is not usable (it is then produced again). */
  parse: (text: string) => T | undefined
  /** Runs once, in the process holding the lock. */
  produce: () => Promise<T>
  /** The text of a result, for the share. */
  serialize: (value: T) => string
}

/**
 * {@link runOnce} through a {@link PrefetchShare} instead of a shared file: exactly one of the processes that
 * call it at once (on any machine) runs `produce` and stores its result; the others wait and read it.
 * A failure of the producer is stored too, so that the processes already waiting fail instead of
 * producing again; a process that starts after it (a retry of the build) tries again. Errors of the
 * share itself are thrown as they are, so that the caller can fall back to the file of its machine.
 */
export async function runOnceShared<T>(options: RunOnceSharedOptions<T>): Promise<Ran<T>> {
  const { share, name } = options
  const read = async () => {
    const text = await share.get(name)
    return text === undefined ? undefined : options.parse(text)
  }
  const startedAt = Date.now()
  /** Throws the failure another process stored since this call started (an older one is retried). */
  const throwFailureSince = async () => {
    const failure = parseFailure(await share.get(`${name}.failed`))
    if (failure !== undefined && failure.at >= startedAt) {
      throw new VerifiedReviewsError(
        `the prefetch failed in another process: ${failure.message} (shared as ${name})`,
      )
    }
  }
  return retryUntilDone<Ran<T>>(options, `for another process producing ${name}`, async () => {
    const done = await read()
    if (done !== undefined) return { done: { value: done, produced: false } }
    await throwFailureSince()
    const lock = await share.lock(`${name}.lock`)
    if (lock === undefined) return { holder: `another process (shared as ${name})` }
    try {
      // Another process may have finished, or failed, between the looks above and taking the lock.
      const raced = await read()
      if (raced !== undefined) return { done: { value: raced, produced: false } }
      await throwFailureSince()
      let value: T
      try {
        value = await options.produce()
      } catch (error) {
        const failure = JSON.stringify({ at: Date.now(), message: failureText(error) })
        await share.set(`${name}.failed`, failure).catch(() => {})
        throw error
      }
      await share.set(name, options.serialize(value))
      return { done: { value, produced: true } }
    } finally {
      await lock.release().catch(() => {})
    }
  })
}

function parseFailure(text: string | undefined): { at: number; message: string } | undefined {
  if (text === undefined) return undefined
  try {
    const failure = JSON.parse(text) as { at?: unknown; message?: unknown }
    if (typeof failure.at === 'number') return { at: failure.at, message: String(failure.message) }
  } catch {}
  return undefined
}
