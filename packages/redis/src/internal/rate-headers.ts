/** One rate window of an API: at most `requests` requests in any `windowMs` milliseconds. */
export interface RateWindow {
  requests: number
  windowMs: number
}

function count(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)
  if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined
  const n = Number(value)
  return n > 0 ? n : undefined
}

/** The windows an answer's headers tell. */
export function windowsOf(headers: Headers): RateWindow[] {
  const windows: RateWindow[] = []
  const second = count(headers, 'x-ratelimit-limit-second')
  if (second !== undefined) windows.push({ requests: second, windowMs: 1000 })
  const minute = count(headers, 'x-ratelimit-limit-minute')
  if (minute !== undefined) windows.push({ requests: minute, windowMs: 60_000 })
  if (windows.length > 0) return windows
  for (const item of (headers.get('ratelimit-policy') ?? '').split(',')) {
    const match = /^\s*(\d+)\s*;(?:.*;)?\s*w=(\d+)/.exec(item)
    if (match !== null && Number(match[1]) > 0 && Number(match[2]) > 0)
      windows.push({ requests: Number(match[1]), windowMs: Number(match[2]) * 1000 })
  }
  if (windows.length > 0) return windows
  const general = count(headers, 'ratelimit-limit')
  const reset = count(headers, 'ratelimit-reset')
  if (general !== undefined && reset !== undefined && reset <= 1)
    windows.push({ requests: general, windowMs: 1000 })
  return windows
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
