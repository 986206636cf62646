/** First retry waits about this long; each further retry doubles it. */
export const INITIAL_RETRY_DELAY_MS = 500
/** Backoff never grows beyond this. */
export const MAX_RETRY_DELAY_MS = 8_000

// Values from here on are epoch seconds (2001-09-09); below, a reset is a number of seconds to wait.
const EPOCH_THRESHOLD_SECONDS = 1_000_000_000

const IMF_FIXDATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/

/**
 * Milliseconds to wait according to `Retry-After`: delay seconds (`120`, also fractional) or an
 * HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`). Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined
  const text = value.trim()
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text) * 1000
  if (!IMF_FIXDATE.test(text)) return undefined
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/**
 * Milliseconds until a `RateLimit-Reset`/`X-RateLimit-Reset` value: seconds to wait, or epoch
 * seconds for large values (as some services send). Undefined when absent or unreadable.
 */
export function parseResetSeconds(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined
  const text = value.trim()
  if (!/^\d+(?:\.\d+)?$/.test(text)) return undefined
  const seconds = Number(text)
  return seconds >= EPOCH_THRESHOLD_SECONDS ? Math.max(0, seconds * 1000 - now) : seconds * 1000
}

/**
 * Milliseconds an answer with `status` asks to wait before trying again. `Retry-After` is the signal
 * (RFC 9110 gives it to 503, RFC 6585 to 429); `RateLimit-Reset` tells when the quota resets, so it
 * stands in for a missing `Retry-After` on a 429 only: on a 503 with quota left it would make the
 * client wait for a quota it has. Undefined when the answer asks for nothing.
 */
export function requestedDelay(
  status: number,
  headers: Headers,
  now: number = Date.now(),
): number | undefined {
  if (status !== 429 && status !== 503) return undefined
  const retryAfter = parseRetryAfter(headers.get('retry-after'), now)
  if (retryAfter !== undefined || status === 503) return retryAfter
  return (
    parseResetSeconds(headers.get('ratelimit-reset'), now) ??
    parseResetSeconds(headers.get('x-ratelimit-reset'), now)
  )
}

/**
 * Milliseconds to wait before the retry number `retry` (0 for the first) of a failure: the answer's
 * status and headers, or undefined when there was no answer (timeout, failed connection).
 * Precedence: Retry-After (429, 503) > RateLimit-Reset, X-RateLimit-Reset (429 only) > backoff.
 */
export function retryDelay(
  retry: number,
  failure: { status: number; headers: Headers } | undefined,
  now: number = Date.now(),
  random: () => number = Math.random,
): number {
  const asked = failure === undefined ? undefined : requestedDelay(failure.status, failure.headers, now)
  return asked ?? backoffDelay(retry, random)
}

/**
 * Capped exponential backoff with jitter for the retry number `retry` (0 for the first retry):
 * between half and all of `min(initial * 2^retry, max)`, so that clients that failed together do
 * not all come back together. The client's retries use the defaults; the outbox passes its own.
 */
export function backoffDelay(
  retry: number,
  random: () => number = Math.random,
  initial: number = INITIAL_RETRY_DELAY_MS,
  max: number = MAX_RETRY_DELAY_MS,
): number {
  // 2^40 is past any ceiling; the bound keeps `0 * Infinity` (an initial delay of 0) out.
  const ceiling = Math.min(initial * 2 ** Math.min(retry, 40), max)
  return ceiling / 2 + (ceiling / 2) * random()
}
