import { ValidationError } from '@verified-reviews/core'
import { buildProblemOf } from '@verified-reviews/core/prefetch'
import { LOG_PREFIX } from './log-prefix.ts'

/**
 * Logs why the work of a scheduled route (revalidate, outbox drain) failed and returns the message of
 * its answer. Missing or refused credentials and an option out of range fail every call until the
 * server's configuration changes, so only other failures (the API or a store down) say that the next
 * call resumes the work.
 */
export function scheduledFailure(failed: string, error: unknown): string {
  const problem = buildProblemOf(error)
  console.error(`${LOG_PREFIX} ${failed}: ${problem.message}`, error)
  const until = 'every call fails the same way until the configuration of this server is fixed'
  if (problem.kind === 'missing') return `${failed}: ${problem.message}; ${until}`
  // The refusal's own message names the client id and the token endpoint: the server log keeps them.
  if (problem.kind === 'refused')
    return `${failed}: the API credentials were refused (see the server log); ${until}`
  if (error instanceof ValidationError) return `${failed}: ${error.message}; ${until}`
  return `${failed}; the next call resumes it`
}
