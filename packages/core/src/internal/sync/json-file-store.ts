import type { FileHandle } from 'node:fs/promises'
import { VerifiedReviewsError } from '../../errors.ts'
import type { ProductReview } from '../../types/published.ts'
import { isJsonObject, readOwnJsonFile } from '../json-file.ts'
import { writeAtomically } from '../write-atomically.ts'
import {
  type ByteSource,
  copyCheckpoint,
  type Held,
  ReviewTable,
  reviewStoreOver,
  type TableChange,
} from './memory-store.ts'
import type { ReviewStore, SyncCheckpoint, SyncedReview } from './store.ts'

const FORMAT = 'verified-reviews/review-store'
const JOURNAL_FORMAT = 'verified-reviews/review-store-journal'
const encoder = new TextEncoder()
const decoder = new TextDecoder()
const NEWLINE = 0x0a
const COMMA = 0x2c
const COMMA_NEWLINE = encoder.encode(',\n')
const ONE_NEWLINE = encoder.encode('\n')
const FILE_END = encoder.encode(']}\n')
const ENTRY_START = encoder.encode('{"reviews":[')
/** The most bytes read at once. */
const BLOCK = 1 << 20

interface StoreFile<R> {
  format: typeof FORMAT
  version: 1
  /** Names this writing of the file; the journal names the file it follows. */
  generation?: string
  checkpoint: SyncCheckpoint | null
  reviews: R[]
}

/** Options of {@link createJsonFileReviewStore}. */
export interface JsonFileReviewStoreOptions {
  /**
   * Where the warning goes when the file is found corrupt and moved aside, or when the end of its
   * journal is dropped.
   * @default console
   */
  logger?: { warn(message: string): void }
}

/** Tuning a test can set; the defaults are what the public store uses. */
export interface JsonFileReviewStoreTuning {
  /** Journal size (bytes) from which a run under way rewrites the file, when the file is no larger. */
  minCompaction: number
  /** Milliseconds between two flushes of the journal to disk while a run is under way. */
  flushInterval: number
}

const TUNING: JsonFileReviewStoreTuning = { minCompaction: 16 << 20, flushInterval: 1000 }

/**
 * A {@link ReviewStore} kept in one JSON file and its journal, for a single server or a build that keeps
 * its cache directory between runs. The file is read once, on first use. Every change (a page of a sync
 * and its checkpoint) is appended to `<path>.journal` as one line, so a page costs what it adds, not
 * the whole store; the file itself is rewritten (through a temporary file, flushed to disk, then renamed
 * over it, so a crash leaves either the old file or the new one) when a run completes with a journal
 * of at least a quarter of the file, or, during a run, when the journal has grown as large as the file
 * (and 16 MiB): every review is written a bounded number of times, so the cost stays linear in the
 * reviews held. The journal is flushed to disk at most once a second during a run and at its end; a
 * crash loses at most the pages since, and the next run resumes from the last checkpoint read back,
 * which is on the same line as the reviews it counts. One process at a time should write a given
 * file. Node's file system is loaded on first use, so the rest of this entry also runs where there is
 * none (edge runtimes).
 *
 * The file is valid JSON with one review per line, read line by line (never as one string). Reviews
 * are not held in memory: the store keeps where each one is in the file or the journal (a couple of
 * hundred bytes a review) and reads it from there, keeping the file open, so that a store of a
 * million reviews fits in a process.
 *
 * A file that is corrupt (empty, not JSON, or a review store whose reviews or checkpoint are
 * malformed) is renamed to `<path>.corrupt-<time>`, kept for inspection, with one warning naming both
 * files; the store then starts empty (its journal, which followed that file, is dropped), so the next
 * sync is a full one. A line at the end of the journal left incomplete by a crash is dropped with a
 * warning. A JSON file that is not a review store (another format or version) is never moved nor
 * overwritten: reading it throws, naming it.
 *
 * @param path The file; its directory is created when missing. A missing file is an empty store.
 */
export function createJsonFileReviewStore<R extends SyncedReview = ProductReview>(
  path: string,
  options: JsonFileReviewStoreOptions = {},
): ReviewStore<R> {
  return openJsonFileReviewStore<R>(path, options, TUNING)
}

/** {@link createJsonFileReviewStore} with its tuning given. */
export function openJsonFileReviewStore<R extends SyncedReview>(
  path: string,
  options: JsonFileReviewStoreOptions,
  tuning: JsonFileReviewStoreTuning,
): ReviewStore<R> {
  const logger = options.logger ?? console
  const journalPath = `${path}.journal`
  /** What is on disk, as this store last read or wrote it. */
  const disk = {
    generation: null as string | null,
    mainBytes: 0,
    journalBytes: 0,
    /** The file is not in the layout journals follow (a file of an earlier version): rewrite it first. */
    rewrite: false,
    /** The affected ids of the journal's last checkpoint, which the next line adds to; undefined: none yet. */
    journalAffected: undefined as Set<string> | undefined,
    lastFlush: 0,
    /** The file, open for reading the reviews placed in it. */
    main: undefined as FileSource | undefined,
    /** The journal, open for reading the reviews placed in it, once it exists. */
    journal: undefined as FileSource | undefined,
  }
  let writes: Promise<void> = Promise.resolve()

  const load = async (): Promise<ReviewTable<R>> => {
    const main = await readMain<R>(path, logger)
    Object.assign(disk, {
      generation: main.generation,
      mainBytes: main.bytes,
      rewrite: main.rewrite,
      journalBytes: 0,
      journalAffected: undefined,
    })
    disk.main?.retire()
    disk.journal?.retire()
    disk.main = main.source
    const { table } = main
    const journal = await replayJournal(journalPath, table, main.generation, logger)
    disk.journalBytes = journal.bytes
    disk.journal = journal.source
    if (journal.entries > 0) disk.journalAffected = new Set(table.checkpoint?.affected ?? [])
    return table
  }

  const compact = async (table: ReviewTable<R>) => {
    const { rm } = await import('node:fs/promises')
    const generation = crypto.randomUUID()
    const header = encoder.encode(
      `${JSON.stringify({ format: FORMAT, version: 1, generation, checkpoint: table.checkpoint ?? null }).slice(0, -1)},"reviews":[\n`,
    )
    // Taken at once, so that the checkpoint written never runs ahead of the reviews written with it.
    const reviews = [...table.held()].map((held) => ({ held, where: { ...held } }))
    let bytes = header.length + FILE_END.length
    for (const { where } of reviews) bytes += where.length + 2
    await writeAtomically(
      path,
      fileParts(
        header,
        reviews.map(({ where }) => where),
      ),
    )
    const main = await FileSource.open(path)
    // Every review is now read from the new file, at the place it was written.
    let offset = header.length
    for (const { held, where } of reviews) {
      Object.assign(held, { bytes: undefined, source: main, offset })
      offset += where.length + 2
    }
    disk.main?.retire()
    disk.journal?.retire()
    await rm(journalPath, { force: true })
    Object.assign(disk, {
      generation,
      mainBytes: bytes,
      journalBytes: 0,
      rewrite: false,
      journalAffected: undefined,
      main,
      journal: undefined,
    })
  }

  const append = async (change: TableChange, idle: boolean) => {
    const { mkdir, open } = await import('node:fs/promises')
    const { dirname } = await import('node:path')
    const parts: Uint8Array[] = []
    if (disk.journalBytes === 0) {
      parts.push(
        encoder.encode(
          `${JSON.stringify({ format: JOURNAL_FORMAT, version: 1, generation: disk.generation })}\n`,
        ),
      )
    }
    const header = parts.length === 0 ? 0 : (parts[0] as Uint8Array).length
    parts.push(journalEntry(change, disk.journalAffected))
    const line = concat(parts)
    await mkdir(dirname(journalPath), { recursive: true })
    const file = await open(journalPath, 'a')
    try {
      await writeAll(file, line)
      const now = Date.now()
      if (idle || now - disk.lastFlush >= tuning.flushInterval) {
        await file.datasync()
        disk.lastFlush = now
      }
    } catch (error) {
      // A line written in part would hide every line after it: the next change rewrites the file instead.
      disk.rewrite = true
      throw error
    } finally {
      await file.close()
    }
    // The reviews of the line are read from the journal from now on, not held in memory.
    disk.journal ??= await FileSource.open(journalPath)
    let offset = disk.journalBytes + header + ENTRY_START.length
    for (const { held, bytes } of change.reviews) {
      Object.assign(held, { bytes: undefined, source: disk.journal, offset, length: bytes.length })
      offset += bytes.length + 1
    }
    disk.journalBytes += line.length
    if (change.checkpoint !== undefined) disk.journalAffected = new Set(change.checkpoint.affected)
  }

  return reviewStoreOver<R>(load, (change, table) => {
    const write = writes.then(async () => {
      const idle = change.checkpoint?.phase === 'idle'
      let journal = disk.journalBytes
      for (const { bytes } of change.reviews) journal += bytes.length + 1
      const full = idle
        ? journal >= disk.mainBytes / 4
        : journal >= Math.max(disk.mainBytes, tuning.minCompaction)
      if (disk.rewrite || full) await compact(table)
      else await append(change, idle)
    })
    // Writes go one after the other, so an older state never lands after a newer one.
    writes = write.catch(() => {})
    return write
  })
}

/**
 * The parts of the file: its header, one review per line, and its end. Reviews read from a file are
 * read by blocks of up to 1 MiB of neighbours (the reviews of the file, in its order), not one by one.
 */
async function* fileParts(
  header: Uint8Array,
  reviews: readonly Omit<Held, 'group' | 'publish'>[],
): AsyncGenerator<Uint8Array> {
  yield header
  const separator = (index: number) => (index === reviews.length - 1 ? ONE_NEWLINE : COMMA_NEWLINE)
  for (let i = 0; i < reviews.length; ) {
    const first = reviews[i] as (typeof reviews)[number]
    if (first.bytes !== undefined || first.source === undefined) {
      yield first.bytes as Uint8Array
      yield separator(i++)
      continue
    }
    let last = i
    let end = first.offset + first.length
    for (;;) {
      const next = reviews[last + 1]
      if (
        next === undefined ||
        next.bytes !== undefined ||
        next.source !== first.source ||
        next.offset < end ||
        next.offset + next.length - first.offset > BLOCK
      ) {
        break
      }
      end = next.offset + next.length
      last++
    }
    const block = await first.source.read(first.offset, end - first.offset)
    for (; i <= last; i++) {
      const review = reviews[i] as (typeof reviews)[number]
      yield block.subarray(review.offset - first.offset, review.offset - first.offset + review.length)
      yield separator(i)
    }
  }
  yield FILE_END
}

/**
 * One line of the journal: the reviews stored and the checkpoint saved with them. When the checkpoint's
 * affected ids extend those of the previous line, only the ids added are written (`affectedAdded`),
 * so that a run over many products does not write them all on every page.
 */
function journalEntry(change: TableChange, previous: Set<string> | undefined): Uint8Array {
  let tail = ''
  const { checkpoint } = change
  if (checkpoint !== undefined) {
    const current = new Set(checkpoint.affected)
    const extends_ = previous !== undefined && [...previous].every((id) => current.has(id))
    if (extends_) {
      const { affected: _, ...rest } = checkpoint
      const added = checkpoint.affected.filter((id) => !previous.has(id))
      tail = `,"checkpoint":${JSON.stringify(rest)},"affectedAdded":${JSON.stringify(added)}`
    } else {
      tail = `,"checkpoint":${JSON.stringify(checkpoint)}`
    }
  }
  const parts: Uint8Array[] = [ENTRY_START]
  change.reviews.forEach(({ bytes }, index) => {
    if (index > 0) parts.push(COMMA_NEWLINE.subarray(0, 1))
    parts.push(bytes)
  })
  // The length of each review, so that a replay reads them from the journal instead of keeping them.
  const lengths = JSON.stringify(change.reviews.map(({ bytes }) => bytes.length))
  parts.push(encoder.encode(`],"lengths":${lengths}${tail}}\n`))
  return concat(parts)
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0
  for (const part of parts) length += part.length
  const joined = new Uint8Array(length)
  let at = 0
  for (const part of parts) {
    joined.set(part, at)
    at += part.length
  }
  return joined
}

async function writeAll(file: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let offset = 0; offset < bytes.length; ) {
    const { bytesWritten } = await file.write(bytes.subarray(offset))
    offset += bytesWritten
  }
}

interface Line {
  bytes: Uint8Array
  /** Offset of the line's first byte in the file. */
  start: number
  /** Whether a newline ends it (the last line of a file cut short has none). */
  complete: boolean
}

/** The lines of a file, read 1 MiB at a time; each line is a copy of its bytes, without the newline. */
async function* readLines(file: FileSource): AsyncGenerator<Line> {
  const chunk = new Uint8Array(BLOCK)
  let pending: Uint8Array[] = []
  let start = 0
  let position = 0
  for (;;) {
    const bytesRead = await file.readInto(chunk, position)
    if (bytesRead === 0) break
    position += bytesRead
    const read = chunk.subarray(0, bytesRead)
    let from = 0
    for (;;) {
      const end = read.indexOf(NEWLINE, from)
      if (end === -1) {
        pending.push(read.slice(from))
        break
      }
      const bytes = concat([...pending, read.subarray(from, end)])
      pending = []
      yield { bytes, start, complete: true }
      start += bytes.length + 1
      from = end + 1
    }
  }
  const rest = concat(pending)
  if (rest.length > 0) yield { bytes: rest, start, complete: false }
}

/**
 * A file kept open to read reviews from, by offset. It stays the file it was when opened (a file
 * renamed over its path later is another one); once retired, it is closed when no read is under way.
 */
class FileSource implements ByteSource {
  readonly #fs: typeof import('node:fs')
  readonly #fd: number
  #reads = 0
  #retired = false

  private constructor(fs: typeof import('node:fs'), fd: number) {
    this.#fs = fs
    this.#fd = fd
  }

  static async open(path: string): Promise<FileSource> {
    const fs = await import('node:fs')
    const fd = await new Promise<number>((resolve, reject) =>
      fs.open(path, 'r', (error, opened) => (error ? reject(error) : resolve(opened))),
    )
    return new FileSource(fs, fd)
  }

  /** Reads into `buffer` from `position`; the bytes read (0 at the end of the file). */
  async readInto(buffer: Uint8Array, position: number): Promise<number> {
    this.#reads++
    try {
      return await new Promise<number>((resolve, reject) =>
        this.#fs.read(this.#fd, buffer, 0, buffer.length, position, (error, bytesRead) =>
          error ? reject(error) : resolve(bytesRead),
        ),
      )
    } finally {
      this.#reads--
      this.#closeIfDone()
    }
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    const bytes = new Uint8Array(length)
    for (let done = 0; done < length; ) {
      const read = await this.readInto(bytes.subarray(done), offset + done)
      if (read === 0) throw new VerifiedReviewsError('the review store file ended before a review it lists')
      done += read
    }
    return bytes
  }

  /** No review is read from this file any more: it is closed once the reads under way end. */
  retire(): void {
    this.#retired = true
    this.#closeIfDone()
  }

  #closeIfDone(): void {
    if (this.#retired && this.#reads === 0) {
      this.#retired = false
      this.#reads = -1
      this.#fs.close(this.#fd, () => {})
    }
  }
}

function parseLine(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(bytes))
  } catch {
    return undefined
  }
}

function isReview(value: unknown): value is SyncedReview {
  return isJsonObject(value) && typeof value.review_id === 'string'
}

interface MainFile<R extends SyncedReview> {
  table: ReviewTable<R>
  generation: string | null
  bytes: number
  rewrite: boolean
  /** The file, open, when its reviews are read from it. */
  source: FileSource | undefined
}

/**
 * Reads the file: line by line when it has the layout this store writes (its reviews then stay in the
 * file), else (a file of an earlier version, or one that does not read line by line) as a whole, which
 * also moves a corrupt file aside.
 */
async function readMain<R extends SyncedReview>(
  path: string,
  logger: { warn(message: string): void },
): Promise<MainFile<R>> {
  let source: FileSource
  try {
    source = await FileSource.open(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { table: new ReviewTable<R>(), generation: null, bytes: 0, rewrite: false, source: undefined }
    }
    throw error
  }
  const read = await readLineLayout<R>(source)
  if (read !== undefined) return read
  source.retire()
  return readWhole<R>(path, logger)
}

/** The file read line by line; undefined when it is not in that layout (or is corrupt). */
async function readLineLayout<R extends SyncedReview>(source: FileSource): Promise<MainFile<R> | undefined> {
  const table = new ReviewTable<R>()
  let generation: string | null = null
  let state: 'header' | 'reviews' | 'end' = 'header'
  let bytes = 0
  for await (const line of readLines(source)) {
    bytes = line.start + line.bytes.length + (line.complete ? 1 : 0)
    if (!line.complete) return undefined
    if (state === 'header') {
      const header = parseLine(concat([line.bytes, encoder.encode(']}')]))
      if (
        !isJsonObject(header) ||
        header.format !== FORMAT ||
        header.version !== 1 ||
        typeof header.generation !== 'string' ||
        !(header.checkpoint === null || isCheckpoint(header.checkpoint))
      ) {
        return undefined
      }
      generation = header.generation
      if (header.checkpoint !== null) table.checkpoint = header.checkpoint as SyncCheckpoint
      state = 'reviews'
    } else if (state === 'reviews') {
      if (line.bytes.length === 2 && line.bytes[0] === 0x5d && line.bytes[1] === 0x7d) {
        state = 'end'
        continue
      }
      const last = line.bytes[line.bytes.length - 1]
      const length = last === COMMA ? line.bytes.length - 1 : line.bytes.length
      const review = parseLine(line.bytes.subarray(0, length))
      if (!isReview(review)) return undefined
      table.putAt(review as R, source, line.start, length)
    } else if (line.bytes.length > 0) {
      return undefined
    }
  }
  return state === 'end' ? { table, generation, bytes, rewrite: false, source } : undefined
}

function isCheckpoint(value: unknown): value is SyncCheckpoint {
  return isJsonObject(value) && Array.isArray(value.affected)
}

/** What is wrong with the content of a file in this store's format, or undefined. */
function malformed(file: Record<string, unknown>): string | undefined {
  if (!Array.isArray(file.reviews)) return 'its reviews are not a list'
  const bad = file.reviews.findIndex((review) => !isReview(review))
  if (bad !== -1) return `its review ${bad} has no review_id`
  if (file.checkpoint !== null && file.checkpoint !== undefined && !isJsonObject(file.checkpoint)) {
    return 'its checkpoint is not an object'
  }
  return undefined
}

async function readWhole<R extends SyncedReview>(
  path: string,
  logger: { warn(message: string): void },
): Promise<MainFile<R>> {
  const file = await readOwnJsonFile<StoreFile<R>>(
    path,
    (value) => {
      if (!isJsonObject(value) || value.format !== FORMAT || value.version !== 1) {
        throw new VerifiedReviewsError(
          `${path} is not a review store file (format ${FORMAT}, version 1); refusing to overwrite it`,
        )
      }
      const problem = malformed(value)
      return problem === undefined ? { value: value as unknown as StoreFile<R> } : { malformed: problem }
    },
    (problem, aside) =>
      logger.warn(
        `[@verified-reviews/core/sync] The review store ${path} is corrupt (${problem}): moved it aside to ` +
          `${aside}; the next sync starts over with a full sync.`,
      ),
  )
  const table = new ReviewTable<R>()
  if (file === undefined) return { table, generation: null, bytes: 0, rewrite: false, source: undefined }
  for (const review of file.reviews) table.put(review)
  if (isJsonObject(file.checkpoint)) table.checkpoint = copyCheckpoint(file.checkpoint)
  const { stat } = await import('node:fs/promises')
  return {
    table,
    generation: typeof file.generation === 'string' ? file.generation : null,
    bytes: (await stat(path)).size,
    rewrite: true,
    source: undefined,
  }
}

/**
 * Replays the journal that follows the file (`generation`) into `table`: a journal that follows another
 * writing of the file (one the file already holds, or one moved aside as corrupt) is removed; a line
 * left incomplete, or unreadable, ends the replay and is cut off with a warning, so that later lines
 * are not appended after it.
 */
async function replayJournal<R extends SyncedReview>(
  path: string,
  table: ReviewTable<R>,
  generation: string | null,
  logger: { warn(message: string): void },
): Promise<{ bytes: number; entries: number; source: FileSource | undefined }> {
  const { rm, rename, truncate } = await import('node:fs/promises')
  let source: FileSource
  try {
    source = await FileSource.open(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { bytes: 0, entries: 0, source: undefined }
    throw error
  }
  let good = 0
  let entries = 0
  let problem: { start: number; why: string } | undefined
  let stale = false
  for await (const line of readLines(source)) {
    const value = line.complete ? parseLine(line.bytes) : undefined
    if (good === 0) {
      if (!isJsonObject(value) || value.format !== JOURNAL_FORMAT || value.version !== 1) {
        problem = { start: 0, why: 'its first line is not a journal header' }
        break
      }
      if (value.generation !== generation) {
        stale = true
        break
      }
    } else {
      const why = !line.complete ? 'a line cut short' : applyEntry(table, value, line, source)
      if (why !== undefined) {
        problem = { start: line.start, why }
        break
      }
      entries++
    }
    good = line.start + line.bytes.length + 1
  }
  if (problem !== undefined && problem.start > 0) await truncate(path, problem.start)
  if (stale) {
    source.retire()
    await rm(path, { force: true })
    return { bytes: 0, entries: 0, source: undefined }
  }
  if (problem !== undefined && problem.start === 0) {
    source.retire()
    const aside = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`
    await rename(path, aside)
    logger.warn(
      `[@verified-reviews/core/sync] The review store journal ${path} is corrupt (${problem.why}): moved it ` +
        `aside to ${aside}; the store is what ${path.slice(0, -'.journal'.length)} holds.`,
    )
    return { bytes: 0, entries: 0, source: undefined }
  }
  if (problem !== undefined) {
    logger.warn(
      `[@verified-reviews/core/sync] The review store journal ${path} ended with ${problem.why} ` +
        `(a crash during a write): dropped it; the next sync resumes from the last checkpoint before it.`,
    )
  }
  return { bytes: good, entries, source }
}

/**
 * Applies one journal line; what is wrong with it, or undefined. Its reviews are read from the journal
 * at the places its `lengths` give (checked against the line), else kept in memory.
 */
function applyEntry<R extends SyncedReview>(
  table: ReviewTable<R>,
  entry: unknown,
  line: Line,
  source: FileSource,
): string | undefined {
  if (!isJsonObject(entry) || !Array.isArray(entry.reviews)) return 'a line that is not a journal entry'
  if (!entry.reviews.every(isReview)) return 'a review without review_id'
  const { checkpoint, affectedAdded, lengths } = entry
  let saved: SyncCheckpoint | undefined
  if (checkpoint !== undefined) {
    if (!isJsonObject(checkpoint)) return 'a checkpoint that is not an object'
    if (Array.isArray(affectedAdded) && affectedAdded.every((id) => typeof id === 'string')) {
      saved = {
        ...(checkpoint as unknown as SyncCheckpoint),
        affected: [...(table.checkpoint?.affected ?? []), ...affectedAdded],
      }
    } else if (isCheckpoint(checkpoint)) {
      saved = checkpoint
    } else {
      return 'a checkpoint without its affected ids'
    }
  }
  const places = placesOf(entry.reviews.length, lengths, line.bytes)
  entry.reviews.forEach((review, index) => {
    const place = places?.[index]
    if (place === undefined) table.put(review as R)
    else table.putAt(review as R, source, line.start + place.offset, place.length)
  })
  if (saved !== undefined) table.checkpoint = saved
  return undefined
}

/** Where each review of a journal line is in it, from its `lengths`; undefined when they do not fit the line. */
function placesOf(
  count: number,
  lengths: unknown,
  bytes: Uint8Array,
): { offset: number; length: number }[] | undefined {
  if (!Array.isArray(lengths) || lengths.length !== count) return undefined
  const places: { offset: number; length: number }[] = []
  let offset = ENTRY_START.length
  for (const [index, length] of lengths.entries()) {
    if (!Number.isSafeInteger(length) || length <= 0) return undefined
    const after = bytes[offset + (length as number)]
    if (bytes[offset] !== 0x7b || after !== (index === count - 1 ? 0x5d : COMMA)) return undefined
    places.push({ offset, length: length as number })
    offset += (length as number) + 1
  }
  return places
}
