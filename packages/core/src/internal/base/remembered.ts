/**
 * The value under `key` in `map` (a `Map` or a `WeakMap`), made on first use; a `Map` that reaches `max`
 * entries is emptied first.
 */
export function remembered<K, V>(
  map: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: () => V,
  max = Number.POSITIVE_INFINITY,
): V {
  let value = map.get(key)
  if (value === undefined) {
    value = make()
    if (map instanceof Map && map.size >= max) map.clear()
    map.set(key, value)
  }
  return value
}
