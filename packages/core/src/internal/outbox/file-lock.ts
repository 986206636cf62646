import { VerifiedReviewsError } from '../../errors.ts'
import { processAlive } from '../prefetch/run-once.ts'

/** What a lock file says of its holder. */
interface LockHolder {
  pid: number
  host: string
  /** Milliseconds since the epoch. */
  since: number
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

let brokenLocks = 0

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code
}

/**
 * Takes the lock file `lockPath` (created with `O_EXCL`, atomic on local file systems), waiting while
 * another process holds it and breaking it when its holder is gone (same host) or it is older than
 * `staleLockTimeout`; answers the function that releases it.
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

async function readHolder(fs: typeof import('node:fs/promises'), path: string): Promise<string | undefined> {
  try {
    return await fs.readFile(path, 'utf8')
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined
    throw error
  }
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
    (holder.host === host && typeof holder.pid === 'number' && !processAlive(holder.pid))
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
