import { ValidationError } from '../base/errors.ts'
import { isContinuationCursor, readContinuation } from '../cursor/continuation.ts'
import { base64url, fromBase64url } from '../cursor/signed-cursor.ts'
import type { ReviewPosition, ReviewStoreQuery, StoreOrder } from '../sync/store.ts'

// Cannot begin an API cursor in practice; printable ASCII, within the cursor shape of the page URL.
const PREFIX = '~vrp1~'

/** Where a page read from the site's replica starts or ends; what {@link positionCursor} carries. */
export type PositionFrom = NonNullable<ReviewStoreQuery['from']>

/**
 * The cursor of a page read from the site's replica rather than the API: the position (sort value and
 * review id) that the next page starts after, or the previous page ends before. Only the replica reads
 * it; the signer signs it for one product, order, rate filter and page size, as it signs API cursors.
 */
export function positionCursor(from: PositionFrom): string {
  const { direction, position } = from
  const payload = { d: direction === 'after' ? 'a' : 'b', v: position.value, i: position.id }
  return PREFIX + base64url(new TextEncoder().encode(JSON.stringify(payload)))
}

function refused(): ValidationError {
  return new ValidationError([{ field: 'cursor', message: 'is not a cursor of the reviews this site holds' }])
}

/**
 * The position a cursor names for a view in `order`: a {@link positionCursor}, or a continuation cursor
 * of a build's first page (newest first), whose last review shown is where the next page starts.
 *
 * @throws ValidationError naming `cursor` for any other cursor (an API cursor, a malformed one), which a
 * view answers with its first page.
 */
export function readPositionCursor(cursor: string, order: StoreOrder): PositionFrom {
  if (!cursor.startsWith(PREFIX)) {
    if (order !== 'newest' || !isContinuationCursor(cursor)) throw refused()
    const { before, skip } = readContinuation(cursor)
    const last = [...skip].sort().at(-1)
    if (last === undefined) throw refused()
    return { direction: 'after', position: { value: Date.parse(before), id: last } }
  }
  let payload: unknown
  try {
    const bytes = fromBase64url(cursor.slice(PREFIX.length))
    payload = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    throw refused()
  }
  const { d, v, i } = (payload ?? {}) as { d?: unknown; v?: unknown; i?: unknown }
  if ((d !== 'a' && d !== 'b') || typeof v !== 'number' || !Number.isFinite(v) || typeof i !== 'string') {
    throw refused()
  }
  const position: ReviewPosition = { value: v, id: i }
  return { direction: d === 'a' ? 'after' : 'before', position }
}
