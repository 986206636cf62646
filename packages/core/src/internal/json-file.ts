/**
 * Reading the JSON files the package writes itself (the review store, the build data), so that a file
 * left damaged (a crash on a file system that lost the last write, a disk full, a hand edit) is moved
 * aside and rebuilt instead of failing every run after it. `node:` modules load on first use, so
 * entries that import this stay loadable on edge runtimes.
 */

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
