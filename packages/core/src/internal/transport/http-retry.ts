import { APIConnectionError, APIError, RateLimitError } from '../../errors.ts'
import { redactUrl } from '../redact.ts'
import { abortable, sleep } from './http-abort.ts'
import { sendOnce } from './http-attempt.ts'
import { proceed, settleShared, takeBudget } from './http-budget.ts'
import { Deadline, isDeadlineError } from './http-deadline.ts'
import { errorFromAnswer } from './http-errors.ts'
import type { HttpSettings, Incoming, Outgoing } from './http-types.ts'
import type { RateLimitEvent, RequestOptions, RetryEvent } from './request-options.ts'
import { retryDelay } from './retry-timing.ts'

function isRetryable(error: unknown): error is APIError | APIConnectionError {
  if (isDeadlineError(error)) return false
  if (error instanceof APIConnectionError) return true
  return error instanceof APIError && (error.status === 429 || error.status >= 500)
}

/**
 * Sends a request with the client's resilience: waits for the rate budget, attaches the token,
 * retries 429, 5xx, timeouts, connection failures and cut-short bodies after the wait `retryDelay`
 * gives (`Retry-After` of a 429 or 503, else backoff), and answers a 401 by dropping the token and
 * trying once more with a new one.
 * Resolves with a 2xx answer; throws a typed error otherwise.
 */
export async function sendLive(
  settings: HttpSettings,
  out: Outgoing,
  options: RequestOptions,
): Promise<Incoming> {
  const maxRetries = options.maxRetries ?? settings.maxRetries
  const signals = [options.signal, settings.signal]
  const deadline = new Deadline(options.totalTimeout ?? settings.totalTimeout, out)
  const url = redactUrl(out.url)
  let retries = 0
  let refreshedToken = false
  for (;;) {
    let token: string | undefined
    // The token request itself goes on for the other callers that share it; this one stops waiting.
    if (out.service.token !== undefined)
      token = await abortable(deadline.race(out.service.token.get()), signals)
    await takeBudget(settings, out, options, retries, deadline)
    let error: unknown
    try {
      const answer = await sendOnce({ settings, out, options, token, deadline })
      if (out.service.budget?.replayed(answer) === true) {
        // A cache's answer (Next.js's data cache): the request spent nothing and tells nothing of now.
        out.service.budget.refund()
        settleShared(out)
      } else {
        out.service.budget?.settle(answer)
        settleShared(out, answer)
      }
      if (answer.status >= 200 && answer.status < 300) return answer
      if (answer.status === 401 && token !== undefined && !refreshedToken) {
        out.service.token?.invalidate(token)
        refreshedToken = true
        continue
      }
      error = errorFromAnswer(answer, out.service.source)
    } catch (thrown) {
      out.service.budget?.settle()
      settleShared(out)
      error = thrown
    }
    deadline.lastError = error
    if (!isRetryable(error) || retries >= maxRetries) throw error
    const delay = retryDelay(retries, error instanceof APIError ? error : undefined)
    const event = { delay, attempt: retries + 1, method: out.method, url }
    // A longer wait than maxRetryWait is not made: the error itself is thrown (a RateLimitError
    // with its retryAfter); a wait that would pass the deadline is not started either.
    if (delay > settings.maxRetryWait) throw error
    if (!deadline.allows(delay)) throw deadline.error(error, delay)
    if (error instanceof RateLimitError) {
      if (!(await proceed(settings.onRateLimit, { ...event, reason: 'refused', error } as RateLimitEvent)))
        throw error
    } else {
      if (!(await proceed(settings.onRetry, { ...event, error } as RetryEvent))) throw error
    }
    // The hooks may have taken a while.
    if (!deadline.allows(delay)) throw deadline.error(error, delay)
    await sleep(delay, signals)
    retries++
  }
}
