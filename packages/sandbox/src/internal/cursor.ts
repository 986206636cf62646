import { createHash } from 'node:crypto'
import { HttpError } from './http-error.ts'

export type KeyValue = string | number

/** A place in a sorted list: just after, or just before, the item with this sort key. */
export interface Position {
  direction: 'after' | 'before'
  key: KeyValue[]
}

interface CursorPayload {
  /** Fingerprint of the limit, sort and filters the cursor was issued with. */
  f: string
  d: 'a' | 'b'
  k: KeyValue[]
}

function invalidCursor(message: string): HttpError {
  return new HttpError(400, 'invalid_cursor', message, { field: 'cursor' })
}

/** A short digest of what a list request asks for (operation, limit, sort, filters). */
export function fingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16)
}

export function encodeCursor(print: string, position: Position): string {
  const payload: CursorPayload = { f: print, d: position.direction === 'after' ? 'a' : 'b', k: position.key }
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url')
}

/**
 * Reads a cursor issued for the same request (`print`) whose key has the given types; anything
 * else — garbage, a different limit, sort or filter — is a 400 `invalid_cursor`.
 */
export function decodeCursor(raw: string, print: string, shape: readonly ('string' | 'number')[]): Position {
  let payload: unknown
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw new Error('not base64url')
    payload = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'))
  } catch {
    throw invalidCursor('cursor is not a cursor issued by this API')
  }
  const { f, d, k } = (payload ?? {}) as Partial<CursorPayload>
  const wellFormed =
    typeof f === 'string' &&
    (d === 'a' || d === 'b') &&
    Array.isArray(k) &&
    k.length === shape.length &&
    k.every((value, i) =>
      shape[i] === 'number' ? typeof value === 'number' && Number.isFinite(value) : typeof value === 'string',
    )
  if (!wellFormed) throw invalidCursor('cursor is not a cursor issued by this API')
  if (f !== print) {
    throw invalidCursor('cursor was issued for another limit, sort or filter; keep them while paging')
  }
  return { direction: d === 'a' ? 'after' : 'before', key: k as KeyValue[] }
}

export interface Keyed<T> {
  item: T
  key: KeyValue[]
}

export type KeyComparator = (a: readonly KeyValue[], b: readonly KeyValue[]) => number

/** Compares sort keys position by position, each ascending unless `descending[i]`. */
export function keyComparator(descending: readonly boolean[]): KeyComparator {
  return (a, b) => {
    for (let i = 0; i < a.length; i++) {
      const x = a[i] as KeyValue
      const y = b[i] as KeyValue
      if (x === y) continue
      const order = x < y ? -1 : 1
      return descending[i] ? -order : order
    }
    return 0
  }
}

export interface Page<T> {
  items: T[]
  /** Key to continue after, when items follow this page. */
  next?: KeyValue[]
  /** Key to go back before, when items precede this page. */
  prev?: KeyValue[]
}

/** First index whose key is not before `key` (`strict`: whose key is after it). */
function boundary<T>(
  sorted: readonly Keyed<T>[],
  key: readonly KeyValue[],
  compare: KeyComparator,
  strict: boolean,
) {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const mid = (low + high) >>> 1
    const order = compare((sorted[mid] as Keyed<T>).key, key)
    if (order < 0 || (strict && order === 0)) low = mid + 1
    else high = mid
  }
  return low
}

/**
 * One page of a list sorted by `compare`: keyset paging, so items added or removed elsewhere in
 * the list neither shift nor repeat the items of a walk.
 */
export function paginate<T>(
  sorted: readonly Keyed<T>[],
  compare: KeyComparator,
  limit: number,
  position?: Position,
): Page<T> {
  let start: number
  let end: number
  if (!position) {
    start = 0
    end = Math.min(limit, sorted.length)
  } else if (position.direction === 'after') {
    start = boundary(sorted, position.key, compare, true)
    end = Math.min(start + limit, sorted.length)
  } else {
    end = boundary(sorted, position.key, compare, false)
    start = Math.max(0, end - limit)
  }
  const slice = sorted.slice(start, end)
  const page: Page<T> = { items: slice.map((entry) => entry.item) }
  if (slice.length === 0) return page
  if (end < sorted.length) page.next = (slice[slice.length - 1] as Keyed<T>).key
  if (start > 0) page.prev = (slice[0] as Keyed<T>).key
  return page
}
