function count(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)
  if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined
  const n = Number(value)
  return n > 0 ? n : undefined
}

/** Milliseconds a 429 asks to wait: `Retry-After` (seconds or a date), else `RateLimit-Reset`, else 1 s. */
export function retryDelay(headers: Headers): number {
  const retryAfter = headers.get('retry-after')
  if (retryAfter !== null) {
    if (/^\s*\d+(\.\d+)?\s*$/.test(retryAfter)) return Math.max(1, Math.ceil(Number(retryAfter) * 1000))
    const date = Date.parse(retryAfter)
    if (!Number.isNaN(date)) return Math.max(1, date - Date.now())
  }
  const reset = count(headers, 'ratelimit-reset')
  return reset === undefined ? 1000 : reset * 1000
}
