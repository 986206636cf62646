import { VerifiedReviewsError } from '../base/errors.ts'
import { isObject } from '../base/validate.ts'
import type { SyncCheckpoint, SyncedReview } from './store.ts'

/**
 * Reading the review store of earlier versions (`createJsonFileReviewStore`: one JSON file and its
 * journal, `<path>.journal`) once, to import it into an SQLite store: no sync is needed again. The file
 * is read line by line (one review a line, as that store wrote it), or as a whole when it is in an older
 * layout; the journal's lines follow it when they name the same writing of the file (`generation`), up
 * to a line a crash left cut short. Each review is handed to `put` as it is read, so that memory stays
 * flat; the checkpoint the file and its journal end with is the answer.
 */
export async function readJsonFileStore(
  path: string,
  put: (review: SyncedReview) => void,
): Promise<SyncCheckpoint | undefined> {
  let checkpoint: SyncCheckpoint | undefined
  let generation: unknown = null
  const lines = await linesOf(path)
  if (lines !== undefined) {
    const header = parse(`${(await lines.next()).value ?? ''}]}`)
    if (isObject(header) && header.format === FORMAT && typeof header.generation === 'string') {
      generation = header.generation
      checkpoint = isObject(header.checkpoint) ? (header.checkpoint as unknown as SyncCheckpoint) : undefined
      for await (const line of lines) {
        if (line === ']}') break
        put(review(parse(line.endsWith(',') ? line.slice(0, -1) : line), path))
      }
    } else {
      await lines.return?.()
      const { readFile } = await import('node:fs/promises')
      const file = parse(await readFile(path, 'utf8'))
      if (!isObject(file) || file.format !== FORMAT || !Array.isArray(file.reviews)) {
        throw new VerifiedReviewsError(`${path} is not a review store file (format ${FORMAT}, version 1)`)
      }
      for (const item of file.reviews) put(review(item, path))
      generation = file.generation ?? null
      checkpoint = isObject(file.checkpoint) ? (file.checkpoint as unknown as SyncCheckpoint) : undefined
    }
  }
  const journal = await linesOf(`${path}.journal`)
  if (journal === undefined) return checkpoint
  const header = parse((await journal.next()).value ?? '')
  if (!isObject(header) || header.generation !== generation) {
    // A journal of another writing of the file: what it says, the file already holds.
    await journal.return?.()
    return checkpoint
  }
  for await (const line of journal) {
    const entry = parse(line)
    // A line a crash cut short ends the journal.
    if (!isObject(entry) || !Array.isArray(entry.reviews)) break
    for (const item of entry.reviews) put(review(item, path))
    const saved = entry.checkpoint
    if (!isObject(saved)) continue
    const added = Array.isArray(entry.affectedAdded) ? (entry.affectedAdded as string[]) : undefined
    checkpoint = {
      ...(saved as unknown as SyncCheckpoint),
      affected:
        added === undefined ? (saved.affected as string[]) : [...(checkpoint?.affected ?? []), ...added],
    }
  }
  return checkpoint
}

const FORMAT = 'verified-reviews/review-store'

/** The lines of a file, or undefined when there is none. */
async function linesOf(path: string): Promise<AsyncIterableIterator<string> | undefined> {
  const { open } = await import('node:fs/promises')
  const { createInterface } = await import('node:readline')
  const file = await open(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw error
  })
  if (file === undefined) return undefined
  const stream = file.createReadStream({ encoding: 'utf8' })
  return createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator]()
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function review(value: unknown, path: string): SyncedReview {
  if (!isObject(value) || typeof value.review_id !== 'string') {
    throw new VerifiedReviewsError(`${path} holds a review without review_id: it was not imported`)
  }
  return value as unknown as SyncedReview
}
