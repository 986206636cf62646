/** Whether two JSON values are equal member by member, whatever the order of object members. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => sameJson(item, b[i]))
  }
  const left = Object.entries(a).filter(([, value]) => value !== undefined)
  const right = b as Record<string, unknown>
  const rightCount = Object.values(right).filter((value) => value !== undefined).length
  return (
    left.length === rightCount &&
    left.every(([key, value]) => Object.hasOwn(right, key) && sameJson(value, right[key]))
  )
}
