import { RateLimitError } from '../../errors.ts'
import { redactUrl } from '../redact.ts'
import { sleep } from './http-abort.ts'
import { type Deadline, isDeadlineError } from './http-deadline.ts'
import type { HttpSettings, Incoming, Outgoing } from './http-types.ts'
import type { RateLimitEvent, RequestOptions } from './request-options.ts'

/** Asks a hook whether to go on; only an explicit `false` gives up. */
export async function proceed<E>(hook: ((event: E) => unknown) | undefined, event: E): Promise<boolean> {
  if (hook === undefined) return true
  return (await hook(event)) !== false
}

/**
 * Waits until the service's rate budgets let one more request go, unless the caller gives up: the
 * budget shared with other instances first (when there is one), then the client's own.
 */
export async function takeBudget(
  settings: HttpSettings,
  out: Outgoing,
  options: RequestOptions,
  attempt: number,
  deadline: Deadline,
) {
  const shared = out.service.sharedBudget
  if (shared !== undefined) {
    await waitForBudget(settings, out, options, attempt, deadline, async () => {
      try {
        const delay = await deadline.race(shared.budget.reserve(shared.key))
        return Number.isFinite(delay) && delay > 0 ? delay : 0
      } catch (error) {
        if (isDeadlineError(error)) throw error
        // A shared budget that fails (its store is down) is left aside: the client's own one decides.
        return 0
      }
    })
  }
  const budget = out.service.budget
  if (budget === undefined) return
  try {
    await waitForBudget(settings, out, options, attempt, deadline, () => budget.reserve())
  } catch (error) {
    // The shared budget let this request go: it learns that it was not sent after all.
    settleShared(out)
    throw error
  }
}

/**
 * Tells the shared budget how a request it let go ended: its answer, or status 0 when there was none
 * (a failed connection, a timeout, or the request was not sent). Never waited for, never failing.
 */
export function settleShared(out: Outgoing, answer?: Incoming): void {
  const shared = out.service.sharedBudget
  if (shared === undefined) return
  shared.budget
    .settle(shared.key, { status: answer?.status ?? 0, headers: answer?.headers ?? new Headers() })
    .catch(() => {})
}

async function waitForBudget(
  settings: HttpSettings,
  out: Outgoing,
  options: RequestOptions,
  attempt: number,
  deadline: Deadline,
  reserve: () => number | Promise<number>,
) {
  const signals = [options.signal, settings.signal]
  for (;;) {
    const delay = await reserve()
    if (delay === 0) return
    const giveUp = () =>
      new RateLimitError({
        status: 429,
        headers: out.service.budget?.headers ?? new Headers(),
        body: undefined,
        url: out.url,
        source: out.service.source,
        retryAfter: delay / 1000,
        message: `The rate budget of ${out.service.source} is spent for ${Math.ceil(delay / 1000)} s; gave up waiting.`,
      })
    if (delay > settings.maxRetryWait) throw giveUp()
    if (!deadline.allows(delay)) throw deadline.error(giveUp(), delay)
    const event: RateLimitEvent = {
      reason: 'budget',
      delay,
      attempt,
      method: out.method,
      url: redactUrl(out.url),
    }
    if (!(await proceed(settings.onRateLimit, event))) throw giveUp()
    await sleep(delay, signals)
  }
}
