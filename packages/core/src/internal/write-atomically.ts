let temporaryFiles = 0

/**
 * Writes `text` to `path` through a temporary file renamed over it, so a crash or a concurrent
 * reader sees either the old file or the new one, never half of one. Creates the folder if needed.
 * `node:` modules load on first use, so entries that import this stay loadable on edge runtimes.
 */
export async function writeAtomically(path: string, text: string): Promise<void> {
  const { mkdir, rename, rm, writeFile } = await import('node:fs/promises')
  const { dirname } = await import('node:path')
  await mkdir(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.${++temporaryFiles}.tmp`
  try {
    await writeFile(temporary, text, 'utf8')
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}
