import { nextTurn } from '../base/next-turn.ts'

/**
 * Asks for the next page of a walk that will read it whatever this page holds (a full sync, a list of
 * products read to its end), before the page in hand is compared and stored: the request travels while
 * the store works, which is synchronous (SQLite) or waits on another server (Redis). Resolves once the
 * request has had a turn of the event loop to go out, to the page's promise in a box (an `async`
 * function would await a promise it returns); the caller awaits `ahead.next` when it wants the page.
 * A failure of the page is handled until then, so that a failed write of the page in hand, which ends
 * the walk first, leaves no unhandled rejection behind.
 */
export async function askAhead<P>(getNextPage: () => PromiseLike<P>): Promise<{ next: Promise<P> }> {
  const next = Promise.resolve(getNextPage())
  next.catch(() => undefined)
  await nextTurn()
  return { next }
}
