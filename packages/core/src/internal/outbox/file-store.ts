import { VerifiedReviewsError } from '../../errors.ts'
import { syncFolder, writeAtomically } from '../write-atomically.ts'
import { acquireFileLock } from './file-lock.ts'
import { type Change, type OutboxRecord, OutboxState } from './state.ts'
import type { OutboxStore } from './store.ts'

/** Options of {@link createFileOutboxStore}. */
export interface FileOutboxStoreOptions {
  /**
   * Where warnings go (a record cut short by a crash, an unreadable line).
   * @default console
   */
  logger?: { warn(message: string): void }
  /**
   * The clock of claims and backoffs, in milliseconds since the epoch.
   * @default Date.now
   */
  now?: () => number
  /**
   * Milliseconds to wait for another process that holds the journal's lock before the call fails.
   * @default 10_000
   */
  lockTimeout?: number
  /**
   * Milliseconds after which a lock is broken even if its holder seems alive (a lock whose process is
   * gone is broken at once). Each holder keeps it for one write.
   * @default 30_000
   */
  staleLockTimeout?: number
}

const HEADER: OutboxRecord = { t: 'outbox', v: 1 }
const RECORD_TYPES = new Set(['outbox', 'entry', 'claim', 'done', 'release', 'dead', 'dead-entry', 'forget'])
/** The journal is rewritten once it holds this many records and four times more than its entries need. */
const COMPACT_AFTER = 1_000

type FileHandle = Awaited<ReturnType<typeof import('node:fs/promises').open>>

interface Pending {
  operation: (state: OutboxState, now: number) => Change<unknown>
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

function isRecord(value: unknown): value is OutboxRecord {
  return (
    typeof value === 'object' && value !== null && RECORD_TYPES.has((value as { t?: unknown }).t as string)
  )
}

/**
 * An {@link OutboxStore} in one journal file, for one server (its processes take turns through a
 * lock file, `<path>.lock`). Every change is one JSON line appended and flushed to disk (`fsync`)
 * before the call resolves, so an event is durable once `add` has resolved, and each write costs the
 * size of the change, not of the file. Changes made at the same time in one process share one write
 * and one flush. The journal is rewritten (temporary file, flushed, renamed) once it holds four times
 * more records than its entries need, so it stays in proportion to what waits.
 *
 * The file is read again from where this process left it before every call, so several processes
 * (workers of one server, a drain in a separate job) see each other's changes. A last line cut short
 * by a crash is dropped (the call that wrote it never resolved), with a warning; an unreadable line
 * elsewhere is skipped, with a warning. A file that is not an outbox journal is never written to.
 * Node's file system is loaded on first use.
 *
 * @param path The journal; its directory is created when missing. A missing file is an empty outbox.
 */
export function createFileOutboxStore(path: string, options: FileOutboxStoreOptions = {}): OutboxStore {
  const journal = new Journal(path, options)
  return {
    add: (entries) => journal.run((state, now) => state.add(entries, now)),
    claim: (claim) => journal.run((state, now) => state.claim(claim, now)),
    complete: (ids) => journal.run((state) => state.complete(ids)),
    release: (owner, ids, release) => journal.run((state, now) => state.release(owner, ids, release, now)),
    deadLetter: (items) => journal.run((state, now) => state.deadLetter(items, now)),
    deadLetters: () => journal.run((state) => ({ result: state.deadLetters(), records: [] })),
    removeDeadLetters: (ids) => journal.run((state) => state.removeDeadLetters(ids)),
    stats: () => journal.run((state, now) => ({ result: state.stats(now), records: [] })),
  }
}

class Journal {
  readonly #path: string
  readonly #logger: { warn(message: string): void }
  readonly #now: () => number
  readonly #lockTimeout: number
  readonly #staleLockTimeout: number
  #queue: Pending[] = []
  #running = false
  /** The state as of `#offset` bytes of the file whose inode is `#inode`; undefined when it must be read again. */
  #state: OutboxState | undefined
  #inode: number | undefined
  #offset = 0
  /** Records in the file, for the compaction rule. */
  #records = 0

  constructor(path: string, options: FileOutboxStoreOptions) {
    this.#path = path
    this.#logger = options.logger ?? console
    this.#now = options.now ?? Date.now
    this.#lockTimeout = options.lockTimeout ?? 10_000
    this.#staleLockTimeout = options.staleLockTimeout ?? 30_000
  }

  /** Runs `operation` under the lock, on the state read up to the end of the file, and writes its records. */
  run<T>(operation: (state: OutboxState, now: number) => Change<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ operation, resolve: resolve as (value: unknown) => void, reject })
      if (!this.#running) void this.#flush()
    })
  }

  async #flush(): Promise<void> {
    this.#running = true
    while (this.#queue.length > 0) {
      // Every call queued meanwhile shares this turn: one lock, one write, one flush to disk.
      const turn = this.#queue.splice(0)
      try {
        const results = await this.#turn(turn)
        turn.forEach((pending, index) => {
          const result = results[index] as { value?: unknown; error?: unknown; failed: boolean }
          if (result.failed) pending.reject(result.error)
          else pending.resolve(result.value)
        })
      } catch (error) {
        // What was applied in memory may not be on disk: read the file again next time.
        this.#state = undefined
        this.#inode = undefined
        for (const pending of turn) pending.reject(error)
      }
    }
    this.#running = false
  }

  async #turn(turn: readonly Pending[]): Promise<{ value?: unknown; error?: unknown; failed: boolean }[]> {
    const fs = await import('node:fs/promises')
    const { dirname } = await import('node:path')
    // The lock file sits beside the journal: its folder must exist before the first lock.
    if (this.#inode === undefined) await fs.mkdir(dirname(this.#path), { recursive: true })
    const release = await acquireFileLock(`${this.#path}.lock`, {
      waitTimeout: this.#lockTimeout,
      staleLockTimeout: this.#staleLockTimeout,
      pollInterval: 2,
    })
    let handle: FileHandle | undefined
    try {
      handle = await this.#catchUp(fs)
      const state = this.#state as OutboxState
      const records: OutboxRecord[] = []
      const results = turn.map((pending) => {
        try {
          const change = pending.operation(state, this.#now())
          records.push(...change.records)
          return { value: change.result, failed: false }
        } catch (error) {
          return { error, failed: true }
        }
      })
      if (records.length > 0) {
        const created = handle === undefined
        if (created) {
          handle = await fs.open(this.#path, 'wx+')
          this.#inode = (await handle.stat()).ino
        }
        if (this.#offset === 0) records.unshift(HEADER)
        const bytes = Buffer.from(`${records.map((record) => JSON.stringify(record)).join('\n')}\n`, 'utf8')
        // At the end of the file as read under the lock; a write cut short goes on where it stopped.
        for (let written = 0; written < bytes.length; ) {
          const at = this.#offset + written
          written += (await (handle as FileHandle).write(bytes, written, bytes.length - written, at))
            .bytesWritten
        }
        await (handle as FileHandle).datasync()
        if (created) await syncFolder(dirname(this.#path))
        this.#offset += bytes.length
        this.#records += records.length
        if (this.#records > COMPACT_AFTER && this.#records > 4 * (state.entries.size + state.dead.size + 1)) {
          await handle?.close()
          handle = undefined
          await this.#compact(state)
        }
      }
      return results
    } finally {
      await handle?.close()
      await release()
    }
  }

  /** Brings the state up to the end of the file; answers the open file, or undefined when there is none. */
  async #catchUp(fs: typeof import('node:fs/promises')): Promise<FileHandle | undefined> {
    let handle: FileHandle
    try {
      handle = await fs.open(this.#path, 'r+')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      this.#reset(undefined)
      return undefined
    }
    try {
      const { ino, size } = await handle.stat()
      if (this.#state === undefined || ino !== this.#inode || size < this.#offset) this.#reset(ino)
      if (size > this.#offset) await this.#read(handle, size)
      return handle
    } catch (error) {
      await handle.close()
      throw error
    }
  }

  #reset(inode: number | undefined): void {
    this.#state = new OutboxState()
    this.#inode = inode
    this.#offset = 0
    this.#records = 0
  }

  async #read(handle: FileHandle, size: number): Promise<void> {
    const length = size - this.#offset
    const bytes = Buffer.alloc(length)
    let read = 0
    while (read < length) {
      const { bytesRead } = await handle.read(bytes, read, length - read, this.#offset + read)
      if (bytesRead === 0) break
      read += bytesRead
    }
    const end = bytes.lastIndexOf(0x0a, read - 1)
    if (end + 1 < read) {
      // We hold the lock, so no one is writing: a line without its end is what a crash left.
      await handle.truncate(this.#offset + end + 1)
      this.#logger.warn(
        `@verified-reviews/core: ${this.#path} ended with a record cut short (${read - end - 1} bytes), left by a process that stopped while writing it; it was dropped (the call that wrote it never completed).`,
      )
    }
    if (end === -1) return
    const state = this.#state as OutboxState
    const lines = bytes.subarray(0, end).toString('utf8').split('\n')
    let unreadable = 0
    lines.forEach((line, index) => {
      if (line === '') return
      let record: unknown
      try {
        record = JSON.parse(line)
      } catch {
        record = undefined
      }
      if (this.#offset === 0 && index === 0) {
        if (!isRecord(record) || record.t !== 'outbox' || record.v !== 1) {
          throw new VerifiedReviewsError(
            `${this.#path} is not an outbox journal (its first line is not {"t":"outbox","v":1}); refusing to write to it`,
          )
        }
      }
      if (!isRecord(record)) {
        unreadable++
        return
      }
      try {
        state.apply(record)
      } catch {
        unreadable++
      }
    })
    this.#records += lines.length
    this.#offset += end + 1
    if (unreadable > 0) {
      this.#logger.warn(
        `@verified-reviews/core: ${this.#path} has ${unreadable} unreadable line(s); they were skipped.`,
      )
    }
  }

  async #compact(state: OutboxState): Promise<void> {
    const { stat } = await import('node:fs/promises')
    const records = state.snapshot()
    const text = `${records.map((record) => JSON.stringify(record)).join('\n')}\n`
    await writeAtomically(this.#path, text)
    this.#inode = (await stat(this.#path)).ino
    this.#offset = Buffer.byteLength(text)
    this.#records = records.length
  }
}
