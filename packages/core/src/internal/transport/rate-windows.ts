/** One rate window of an API: at most `requests` requests in any `windowMs` milliseconds. */
export interface RateWindow {
  requests: number
  windowMs: number
}

function positive(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)
  if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined
  const n = Number(value)
  return n > 0 ? n : undefined
}

/**
 * The windows an answer's headers tell the size of: `X-RateLimit-Limit-Second` and `-Minute`, else
 * `RateLimit-Policy`, else `RateLimit-Limit` with a reset of at most a second (a window of a second).
 * The client's own budget and the Redis budget both read them here, so that both pace at the same limits.
 */
export function rateWindowsOf(headers: Headers): RateWindow[] {
  const windows: RateWindow[] = []
  const second = positive(headers, 'x-ratelimit-limit-second')
  if (second !== undefined) windows.push({ requests: second, windowMs: 1000 })
  const minute = positive(headers, 'x-ratelimit-limit-minute')
  if (minute !== undefined) windows.push({ requests: minute, windowMs: 60_000 })
  if (windows.length > 0) return windows
  for (const item of (headers.get('ratelimit-policy') ?? '').split(',')) {
    const match = /^\s*(\d+)\s*;(?:.*;)?\s*w=(\d+)/.exec(item)
    if (match !== null && Number(match[1]) > 0 && Number(match[2]) > 0)
      windows.push({ requests: Number(match[1]), windowMs: Number(match[2]) * 1000 })
  }
  if (windows.length > 0) return windows
  const general = positive(headers, 'ratelimit-limit')
  const reset = positive(headers, 'ratelimit-reset')
  if (general !== undefined && reset !== undefined && reset <= 1)
    windows.push({ requests: general, windowMs: 1000 })
  return windows
}
