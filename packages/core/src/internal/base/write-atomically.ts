let temporaryFiles = 0

/** Options of {@link writeAtomically}. */
export interface WriteAtomicallyOptions {
  /**
   * Permissions of the file written (a temporary file renamed over the old one would otherwise take
   * the default ones).
   * @default 0o666 minus the umask
   */
  mode?: number
}

/**
 * Writes `data` (text as UTF-8, or bytes) to `path` through a temporary file in the same folder,
 * flushed to disk, then renamed over it, and flushes the folder too where the system allows: a crash or
 * a concurrent reader sees either the old file or the new one, never half of one or an empty one.
 * Creates the folder if needed. `node:` modules load on first use, so entries that import this stay
 * loadable on edge runtimes.
 */
export async function writeAtomically(
  path: string,
  data: string | Uint8Array,
  options: WriteAtomicallyOptions = {},
): Promise<void> {
  const { mkdir, open, rename, rm } = await import('node:fs/promises')
  const { dirname } = await import('node:path')
  const folder = dirname(path)
  await mkdir(folder, { recursive: true })
  const temporary = `${path}.${process.pid}.${++temporaryFiles}.tmp`
  try {
    const file = await open(temporary, 'wx', options.mode)
    try {
      await file.writeFile(data)
      // Without it, a crash soon after the rename can leave the new name on an empty file.
      await file.sync()
      if (options.mode !== undefined) await file.chmod(options.mode)
    } finally {
      await file.close()
    }
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  await syncFolder(folder)
}

/** Flushes the rename to disk; some systems (Windows) cannot open a folder, and then it is left to them. */
async function syncFolder(folder: string): Promise<void> {
  const { open } = await import('node:fs/promises')
  let handle: Awaited<ReturnType<typeof open>> | undefined
  try {
    handle = await open(folder, 'r')
    await handle.sync()
  } catch {
    // Best effort: the file itself is already flushed.
  } finally {
    await handle?.close().catch(() => {})
  }
}
