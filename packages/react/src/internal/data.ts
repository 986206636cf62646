import type { VerifiedReviewsClient } from '@verified-reviews/core'
import type { SearchParamsRecord } from '@verified-reviews/core/internal'

/** What a data component passes to its `onError` with the error. */
export interface ReviewsErrorContext {
  /** The component that failed, such as `ProductReviews`. */
  component: string
}

/** Receives an API failure that a data component turned into rendering nothing. */
export type ReviewsErrorHandler = (error: unknown, context: ReviewsErrorContext) => void

/** A page's search params: a record (Next.js `searchParams`, awaited or not) or a `URLSearchParams`. */
export type SearchParamsInput =
  | URLSearchParams
  | SearchParamsRecord
  | Promise<URLSearchParams | SearchParamsRecord>
  | undefined

/** `NODE_ENV`, read through `globalThis` so runtimes without `process` have none. */
function nodeEnv(): string | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NODE_ENV
}

/**
 * The given client, else the environment's default client of the core (`defaultClient()`: one client
 * per process, built again when a `VERIFIED_REVIEWS_*` variable changes), so every render shares its
 * token and rate budget. The core is imported on demand, so presentational components imported from
 * the same entry never pull it into a browser bundle.
 */
export function resolveClient(client: VerifiedReviewsClient | undefined): Promise<VerifiedReviewsClient> {
  if (client !== undefined) return Promise.resolve(client)
  return import('@verified-reviews/core').then((core) => core.defaultClient())
}

/** True for what a framework throws on purpose during rendering (Next.js redirects, dynamic usage, React postpone). */
export function isFrameworkSignal(error: unknown): boolean {
  let current = error
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const candidate = current as { digest?: unknown; $$typeof?: unknown; cause?: unknown }
    if (typeof candidate.digest === 'string') return true
    if (candidate.$$typeof === Symbol.for('react.postpone')) return true
    current = candidate.cause
  }
  return false
}

const reported = new WeakSet<object>()

function logError(error: unknown, { component }: ReviewsErrorContext): void {
  console.error(`@verified-reviews/react: ${component} rendered nothing because the API call failed.`, error)
}

/**
 * Hands an API failure to `onError` (the console by default) once: components that share a failed
 * call (bulk ratings) share its error object, which is reported by the first of them only. What a
 * framework throws on purpose is thrown again, so redirects and dynamic rendering keep working.
 */
export function reportError(
  error: unknown,
  component: string,
  onError: ReviewsErrorHandler = logError,
): void {
  if (isFrameworkSignal(error)) throw error
  if (typeof error === 'object' && error !== null) {
    if (reported.has(error)) return
    reported.add(error)
  }
  onError(error, { component })
}

const warned = new Set<string>()

/** A development warning, given once per message; silent when `NODE_ENV` is `production`. */
export function warnOnce(message: string): void {
  if (nodeEnv() === 'production' || warned.has(message)) return
  warned.add(message)
  console.warn(`@verified-reviews/react: ${message}`)
}
