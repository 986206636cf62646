import type { FileHandle } from 'node:fs/promises'

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
 * Writes `data` (text as UTF-8, bytes, or bytes in pieces, written as they come so that a large file
 * is never one string in memory) to `path` through a temporary file in the same folder,
 * flushed to disk, then renamed over it, and flushes the folder too where the system allows: a crash or
 * a concurrent reader sees either the old file or the new one, never half of one or an empty one.
 * Creates the folder if needed. `node:` modules load on first use, so entries that import this stay
 * loadable on edge runtimes.
 */
export async function writeAtomically(
  path: string,
  data: string | Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
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
      if (typeof data === 'string' || data instanceof Uint8Array) await file.writeFile(data)
      else await writePieces(file, data)
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
export async function syncFolder(folder: string): Promise<void> {
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

/** Writes pieces of bytes gathered into writes of about 1 MiB. */
async function writePieces(
  file: Pick<FileHandle, 'write'>,
  pieces: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
): Promise<void> {
  const size = 1 << 20
  let batch: Uint8Array[] = []
  let length = 0
  const flush = async () => {
    if (length === 0) return
    const joined = new Uint8Array(length)
    let at = 0
    for (const piece of batch) {
      joined.set(piece, at)
      at += piece.length
    }
    batch = []
    length = 0
    // A write may write less than asked: the rest goes on until every byte is written.
    for (let offset = 0; offset < joined.length; ) {
      const { bytesWritten } = await file.write(joined.subarray(offset))
      offset += bytesWritten
    }
  }
  for await (const piece of pieces) {
    batch.push(piece)
    length += piece.length
    if (length >= size) await flush()
  }
  await flush()
}
