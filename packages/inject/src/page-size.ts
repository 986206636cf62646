/**
 * The injector's cap on the size of a page: a page is parsed whole, in several times its size of
 * memory, so a page over the cap is skipped, unread.
 */

/** The size cap of a page, by default: 20 MB, some hundred times a large product page. */
export const DEFAULT_MAX_PAGE_BYTES = 20_000_000

const UNITS: Readonly<Record<string, number>> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9 }

/**
 * A size as written on the command line, in bytes: a number of bytes (`20000000`), or a number with
 * `B`, `kB`, `MB` or `GB` (decimal: `20MB` is 20,000,000 bytes), in any case; undefined for anything
 * else, or a size under one byte.
 */
export function parseByteSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(text)
  if (match === null) return undefined
  const bytes = Math.floor(Number(match[1]) * (UNITS[(match[2] ?? 'b').toLowerCase()] ?? 1))
  return Number.isSafeInteger(bytes) && bytes >= 1 ? bytes : undefined
}

/** A size for a reader: `512 bytes`, `20 kB`, `20.5 MB` (decimal units, one decimal at most). */
export function formatBytes(bytes: number): string {
  if (bytes < 1e3) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`
  const [unit, size]: [string, number] = bytes < 1e6 ? ['kB', 1e3] : bytes < 1e9 ? ['MB', 1e6] : ['GB', 1e9]
  return `${Number((bytes / size).toFixed(1))} ${unit}`
}
