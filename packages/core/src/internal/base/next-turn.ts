/**
 * Resolves after one turn of the event loop (`setImmediate`: after the pending I/O callbacks; edge
 * runtimes have `setTimeout` only), so that a request just sent has gone out before synchronous work
 * (parsing a page, writing to SQLite) holds the thread.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  )
}
