/**
 * Reading the JSON files the package writes itself (the review store, the build data), so that a file
 * left damaged (a crash on a file system that lost the last write, a disk full, a hand edit) is moved
 * aside and rebuilt instead of failing every run after it. `node:` modules load on first use, so
 * entries that import this stay loadable on edge runtimes.
 */
import { VerifiedReviewsError } from '../errors.ts'

/** What {@link readJsonFile} found. */
export type JsonFileContent =
  | { kind: 'missing' }
  | { kind: 'json'; value: unknown; text: string }
  /** The file does not parse as JSON: why, and its text (to move it aside only if unchanged). */
  | { kind: 'corrupt'; problem: string; text: string }

/** Reads and parses `path`; a missing file and a file that is not JSON are answers, not errors. */
export async function readJsonFile(path: string): Promise<JsonFileContent> {
  const { readFile } = await import('node:fs/promises')
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' }
    throw error
  }
  if (text.trim() === '') return { kind: 'corrupt', problem: 'it is empty', text }
  try {
    return { kind: 'json', value: JSON.parse(text), text }
  } catch (error) {
    return { kind: 'corrupt', problem: `it is not valid JSON: ${(error as Error).message}`, text }
  }
}

/**
 * Renames a damaged file to `<path>.corrupt-<time>` and answers that name; undefined when the file
 * no longer holds `text` (another process moved or rewrote it meanwhile), in which case it is left, or
 * put back, where it was.
 */
export async function moveAside(path: string, text: string, now = new Date()): Promise<string | undefined> {
  const { link, lstat, readFile, rename, rm } = await import('node:fs/promises')
  const base = `${path}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`
  let aside = base
  // A rename replaces its target: never one set aside earlier.
  for (
    let n = 2;
    await lstat(aside).then(
      () => true,
      () => false,
    );
    n++
  )
    aside = `${base}-${n}`
  try {
    await rename(path, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  // Renamed away rather than deleted, so that a file another process wrote since the read is not lost.
  if ((await readFile(aside, 'utf8')) !== text) {
    await link(aside, path).catch(() => {})
    await rm(aside, { force: true })
    return undefined
  }
  return aside
}

/** What a file's content is, once parsed: the value wanted, or what is wrong with it. */
export type JsonFileCheck<T> = { value: T } | { malformed: string }

/**
 * Reads a JSON file this package writes: undefined when there is none; when it is corrupt (empty, not
 * JSON, or malformed by `check`), moves it aside, calls `onCorrupt` with why and where it went, and
 * answers undefined too, so that the caller rebuilds it. `check` throws to refuse a file that is not
 * the package's (another format), which is never moved.
 */
export async function readOwnJsonFile<T>(
  path: string,
  check: (value: unknown) => JsonFileCheck<T>,
  onCorrupt: (problem: string, aside: string) => void,
): Promise<T | undefined> {
  // A corrupt file that another process moves or rewrites meanwhile is read again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const content = await readJsonFile(path)
    if (content.kind === 'missing') return undefined
    const checked: JsonFileCheck<T> =
      content.kind === 'corrupt' ? { malformed: content.problem } : check(content.value)
    if ('value' in checked) return checked.value
    const aside = await moveAside(path, content.text)
    if (aside !== undefined) {
      onCorrupt(checked.malformed, aside)
      return undefined
    }
  }
  throw new VerifiedReviewsError(`${path} kept changing while it was read`)
}

/** Whether `value` is a plain JSON object (not an array, not null). */
export { isObject as isJsonObject } from './validate.ts'
