/**
 * Node.js's global dispatcher: the undici `Agent` under Node.js's `fetch`, which sends every request
 * that names no dispatcher of its own. Node.js documents the `dispatcher` option of `fetch` but gives no
 * way to reach its own dispatcher short of installing the `undici` package, whose dispatchers do not
 * mix with the undici a given Node.js bundles (their handler interfaces differ across majors); undici
 * keeps it on `globalThis` under a registered symbol, which this module alone reads.
 * `undici-global-dispatcher.test.ts` fails if a Node.js release stops keeping it there.
 */

/** The options undici hands a dispatcher (`Dispatcher.dispatch`), as far as this package reads them. */
export interface DispatchOptions {
  headers?: unknown
  [option: string]: unknown
}

/** An undici dispatcher, as far as this package calls it. */
export interface Dispatcher {
  dispatch(options: DispatchOptions, handler: unknown): boolean
}

// Private to undici (not a Node.js API): the symbols its `setGlobalDispatcher` keeps the dispatcher
// under. Undici 8 (Node.js 26) keeps the dispatcher of its current handler interface under `.2` and an
// adapter for older handlers under `.1`; undici 7 (Node.js 24) the same dispatcher under both.
const GLOBAL_DISPATCHER_SYMBOLS = [
  Symbol.for('undici.globalDispatcher.2'),
  Symbol.for('undici.globalDispatcher.1'),
]

/**
 * Node.js's global dispatcher, once a `fetch` has made it (Node.js makes it at its first `fetch`);
 * undefined before, and where there is none (an edge runtime).
 */
export function nodeGlobalDispatcher(): Dispatcher | undefined {
  for (const symbol of GLOBAL_DISPATCHER_SYMBOLS) {
    const found = (globalThis as Record<symbol, unknown>)[symbol] as Partial<Dispatcher> | undefined
    if (typeof found?.dispatch === 'function') return found as Dispatcher
  }
  return undefined
}
