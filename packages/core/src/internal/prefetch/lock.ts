import { VerifiedReviewsError } from '../../errors.ts'
import type { SharedLock } from '../shared-state.ts'

/** What a lock file says of its holder. */
interface LockHolder {
  pid: number
  host: string
  /** Milliseconds since the epoch. */
  since: number
}

/** Options of {@link runOnce}. */
export interface RunOnceOptions<T> {
  /** The lock file: created exclusively by the one process that runs `produce`. */
  lockPath: string
  /** Reads what a finished run left (undefined when nothing is there yet). */
  read: () => Promise<T | undefined>
  /** Runs once, in the process holding the lock, and leaves its result where `read` finds it. */
  produce: () => Promise<T>
  /** Where the holder writes why `produce` failed, so that the waiters fail too instead of retrying. */
  failurePath: string
  /** Milliseconds a process waits for another one's run. */
  waitTimeout: number
  /** Milliseconds after which a lock is broken even if its holder seems alive (another host, a hung run). */
  staleLockTimeout: number
  /** Milliseconds between two looks at the lock while waiting (doubling up to 8 times that). */
  pollInterval: number
  signal?: AbortSignal | undefined
  /** Told what this process waits for: when it starts waiting, then every 30 seconds. */
  onWait?: WaitListener | undefined
}

/** Told, while a process waits for another one's run, what holds the lock and how long it has waited. */
export type WaitListener = (holder: string, waitedMs: number) => void

/** Milliseconds between two reports of a wait. */
const WAIT_REPORT_INTERVAL = 30_000

/** Calls `listener` when a wait starts, then every {@link WAIT_REPORT_INTERVAL} of it. */
function waitReporter(listener: WaitListener | undefined): (holder: () => Promise<string>) => Promise<void> {
  let started: number | undefined
  let next = 0
  return async (holder) => {
    if (listener === undefined) return
    const now = Date.now()
    started ??= now
    if (now < next) return
    next = now + WAIT_REPORT_INTERVAL
    listener(await holder(), now - started)
  }
}

let brokenLocks = 0

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return errnoCode(error) === 'EPERM'
  }
}

/**
 * Makes exactly one of the processes that call it at once run `produce`; the others wait for its
 * result and read it. The lock is a file created with `O_EXCL` (atomic on local file systems); a lock
 * left by a process that is gone (same host) or older than `staleLockTimeout` is broken.
 */
export async function runOnce<T>(options: RunOnceOptions<T>): Promise<{ value: T; produced: boolean }> {
  const fs = await import('node:fs/promises')
  const { dirname } = await import('node:path')
  const { hostname } = await import('node:os')
  const host = hostname()
  await fs.mkdir(dirname(options.lockPath), { recursive: true })
  const deadline = Date.now() + options.waitTimeout
  let delay = options.pollInterval
  const reportWait = waitReporter(options.onWait)

  for (;;) {
    options.signal?.throwIfAborted()
    const done = await options.read()
    if (done !== undefined) return { value: done, produced: false }
    await throwRecordedFailure(fs, options.failurePath)

    if ((await tryLock(fs, options.lockPath, host)) !== undefined) {
      try {
        // Another process may have finished, or failed, between the looks above and taking the lock.
        const raced = await options.read()
        if (raced !== undefined) return { value: raced, produced: false }
        await throwRecordedFailure(fs, options.failurePath)
        try {
          return { value: await options.produce(), produced: true }
        } catch (error) {
          await recordFailure(fs, options.failurePath, error)
          throw error
        }
      } finally {
        await fs.rm(options.lockPath, { force: true })
      }
    }

    await breakIfStale(fs, options.lockPath, host, options.staleLockTimeout)
    await reportWait(async () => describeHolder(await readHolder(fs, options.lockPath), options.lockPath))
    if (Date.now() >= deadline) {
      throw new VerifiedReviewsError(
        `gave up after waiting ${options.waitTimeout} ms for another process holding ${options.lockPath}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(0, deadline - Date.now()))))
    delay = Math.min(delay * 2, options.pollInterval * 8)
  }
}

/**
 * Creates the lock file if no one holds it, naming this process in it, and answers what it wrote;
 * undefined when another process holds it.
 */
async function tryLock(
  fs: typeof import('node:fs/promises'),
  lockPath: string,
  host: string,
): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof fs.open>>
  try {
    handle = await fs.open(lockPath, 'wx')
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error
    return undefined
  }
  const holder: LockHolder = { pid: process.pid, host, since: Date.now() }
  const text = JSON.stringify(holder)
  try {
    await handle.writeFile(text)
  } finally {
    await handle.close()
  }
  return text
}

/** Options of {@link acquireFileLock}. */
export interface FileLockOptions {
  /** Milliseconds to wait for another process holding the lock. */
  waitTimeout: number
  /** Milliseconds after which a lock is broken even if its holder seems alive (another host, a hung process). */
  staleLockTimeout: number
  /** Milliseconds between two tries while waiting (doubling up to 8 times that). */
  pollInterval: number
}

/**
 * Takes the lock file `lockPath` (created with `O_EXCL`), waiting while another process holds it and
 * breaking it when its holder is gone (same host) or it is older than `staleLockTimeout`, as
 * {@link runOnce} does; answers the function that releases it.
 */
export async function acquireFileLock(
  lockPath: string,
  options: FileLockOptions,
): Promise<() => Promise<void>> {
  const fs = await import('node:fs/promises')
  const { hostname } = await import('node:os')
  const host = hostname()
  const deadline = Date.now() + options.waitTimeout
  let delay = options.pollInterval
  for (;;) {
    const mine = await tryLock(fs, lockPath, host)
    if (mine !== undefined) {
      return async () => {
        // A lock broken as stale and taken by another process is theirs now: left alone.
        if ((await readHolder(fs, lockPath)) === mine) await fs.rm(lockPath, { force: true })
      }
    }
    await breakIfStale(fs, lockPath, host, options.staleLockTimeout)
    if (Date.now() >= deadline) {
      throw new VerifiedReviewsError(
        `gave up after waiting ${options.waitTimeout} ms for another process holding ${lockPath}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(0, deadline - Date.now()))))
    delay = Math.min(delay * 2, options.pollInterval * 8)
  }
}

async function readHolder(fs: typeof import('node:fs/promises'), path: string): Promise<string | undefined> {
  try {
    return await fs.readFile(path, 'utf8')
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined
    throw error
  }
}

/** Who holds a lock, in words: `process 1234 on host (lock <path>)`. */
function describeHolder(text: string | undefined, lockPath: string): string {
  const holder = text === undefined ? {} : parseHolder(text)
  const who =
    typeof holder.pid === 'number'
      ? `process ${holder.pid}${typeof holder.host === 'string' ? ` on ${holder.host}` : ''}`
      : 'another process'
  return `${who} (lock ${lockPath})`
}

function parseHolder(text: string): Partial<LockHolder> {
  try {
    const holder: unknown = JSON.parse(text)
    return typeof holder === 'object' && holder !== null ? (holder as Partial<LockHolder>) : {}
  } catch {
    // A lock being written is empty for an instant; its age tells whether it stays so.
    return {}
  }
}

async function breakIfStale(
  fs: typeof import('node:fs/promises'),
  lockPath: string,
  host: string,
  staleLockTimeout: number,
): Promise<void> {
  const text = await readHolder(fs, lockPath)
  if (text === undefined) return
  const holder = parseHolder(text)
  const since =
    typeof holder.since === 'number'
      ? holder.since
      : (await fs.stat(lockPath).catch(() => undefined))?.mtimeMs
  const stale =
    (since !== undefined && Date.now() - since > staleLockTimeout) ||
    (holder.host === host && typeof holder.pid === 'number' && !alive(holder.pid))
  if (!stale) return
  // Renamed away rather than deleted, so a waiter that judged an older lock cannot delete a fresh one.
  const aside = `${lockPath}.${process.pid}.${++brokenLocks}.stale`
  try {
    await fs.rename(lockPath, aside)
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return
    throw error
  }
  const taken = await readHolder(fs, aside)
  if (taken !== text) await fs.link(aside, lockPath).catch(() => {})
  await fs.rm(aside, { force: true })
}

async function recordFailure(
  fs: typeof import('node:fs/promises'),
  path: string,
  error: unknown,
): Promise<void> {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  await fs.writeFile(path, JSON.stringify({ pid: process.pid, message }), 'utf8').catch(() => {})
}

async function throwRecordedFailure(fs: typeof import('node:fs/promises'), path: string): Promise<void> {
  const text = await readHolder(fs, path)
  if (text === undefined) return
  let failure: { pid?: number; message?: string } = {}
  try {
    failure = JSON.parse(text) as typeof failure
  } catch {
    failure = { message: text }
  }
  throw new VerifiedReviewsError(
    `the prefetch failed in process ${failure.pid ?? '?'}: ${failure.message ?? 'unknown error'} (${path})`,
  )
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
export interface RunOnceSharedOptions<T> {
  share: PrefetchShare
  /** Names the result in the share; the lock and the failure note are named after it. */
  name: string
  /** Reads a result stored by a finished run; undefined when it is not usable (it is then produced again). */
  parse: (text: string) => T | undefined
  /** Runs once, in the process holding the lock. */
  produce: () => Promise<T>
  /** The text of a result, for the share. */
  serialize: (value: T) => string
  waitTimeout: number
  pollInterval: number
  signal?: AbortSignal | undefined
  /** Told what this process waits for: when it starts waiting, then every 30 seconds. */
  onWait?: WaitListener | undefined
}

/**
 * {@link runOnce} through a {@link PrefetchShare} instead of files: exactly one of the processes that
 * call it at once (on any machine) runs `produce` and stores its result; the others wait and read it.
 * A failure of the producer is stored too, so that the processes already waiting fail instead of
 * producing again; a process that starts after it (a retry of the build) tries again. Errors of the
 * share itself are thrown as they are, so that the caller can fall back to the lock file.
 */
export async function runOnceShared<T>(
  options: RunOnceSharedOptions<T>,
): Promise<{ value: T; produced: boolean }> {
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
  const deadline = startedAt + options.waitTimeout
  let delay = options.pollInterval
  const reportWait = waitReporter(options.onWait)
  for (;;) {
    options.signal?.throwIfAborted()
    const done = await read()
    if (done !== undefined) return { value: done, produced: false }
    await throwFailureSince()
    const lock = await share.lock(`${name}.lock`)
    if (lock !== undefined) {
      try {
        // Another process may have finished, or failed, between the looks above and taking the lock.
        const raced = await read()
        if (raced !== undefined) return { value: raced, produced: false }
        await throwFailureSince()
        let value: T
        try {
          value = await options.produce()
        } catch (error) {
          const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
          await share.set(`${name}.failed`, JSON.stringify({ at: Date.now(), message })).catch(() => {})
          throw error
        }
        await share.set(name, options.serialize(value))
        return { value, produced: true }
      } finally {
        await lock.release().catch(() => {})
      }
    }
    await reportWait(async () => `another process (shared as ${name})`)
    if (Date.now() >= deadline) {
      throw new VerifiedReviewsError(
        `gave up after waiting ${options.waitTimeout} ms for another process producing ${name}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(0, deadline - Date.now()))))
    delay = Math.min(delay * 2, options.pollInterval * 8)
  }
}

function parseFailure(text: string | undefined): { at: number; message: string } | undefined {
  if (text === undefined) return undefined
  try {
    const failure = JSON.parse(text) as { at?: unknown; message?: unknown }
    if (typeof failure.at === 'number') return { at: failure.at, message: String(failure.message) }
  } catch {}
  return undefined
}
