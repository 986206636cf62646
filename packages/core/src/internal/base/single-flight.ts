/** Where the promises under way are kept: a `Map`, or a `WeakMap` for object keys. */
export interface FlightMap<K, V> {
  get(key: K): Promise<V> | undefined
  set(key: K, value: Promise<V>): unknown
  delete(key: K): boolean
}

/**
 * How long a shared promise stays shared: `'flight'` while it runs (the next caller after it settles
 * starts again), `'success'` once it resolved too (a memo; a rejected one is dropped so the next caller
 * tries again).
 */
export type KeepFor = 'flight' | 'success'

/** Callers of one key share one promise: the first starts it, the others join. */
export interface SingleFlight<K, V> {
  /** The promise under `key`, started with `start` when there is none. */
  run(key: K, start: () => Promise<V>): Promise<V>
  /** The promise under `key`, if one is kept. */
  get(key: K): Promise<V> | undefined
}

/**
 * A {@link SingleFlight} over `map` (a fresh `Map` by default; pass one kept elsewhere, such as on
 * `globalThis`, for promises shared by two copies of a module).
 */
export function singleFlight<K, V>(
  keep: KeepFor = 'flight',
  map: FlightMap<K, V> = new Map<K, Promise<V>>(),
): SingleFlight<K, V> {
  return {
    run(key, start) {
      const running = map.get(key)
      if (running !== undefined) return running
      const promise = start()
      map.set(key, promise)
      const forget = (): void => {
        if (map.get(key) === promise) map.delete(key)
      }
      if (keep === 'flight') promise.then(forget, forget)
      else promise.catch(forget)
      return promise
    },
    get: (key) => map.get(key),
  }
}

/**
 * One promise for every caller: `start` runs on the first call, and again after a failure (`'success'`)
 * or after each settled run (`'flight'`).
 */
export function sharedPromise<V>(start: () => Promise<V>, keep: KeepFor = 'success'): () => Promise<V> {
  const flight = singleFlight<true, V>(keep)
  return () => flight.run(true, start)
}
