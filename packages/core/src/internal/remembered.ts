/** The value under `key` in `map`, made on first use; a map that reaches `max` entries is emptied first. */
export function remembered<K, V>(map: Map<K, V>, key: K, make: () => V, max = Number.POSITIVE_INFINITY): V {
  let value = map.get(key)
  if (value === undefined) {
    value = make()
    if (map.size >= max) map.clear()
    map.set(key, value)
  }
  return value
}
