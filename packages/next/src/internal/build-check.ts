import {
  APIConnectionError,
  AuthenticationError,
  missingCredentials,
  readEnvironment,
  ValidationError,
} from '@verified-reviews/core'

/**
 * The outcome of the credentials check at the start of `next build`, handed to the build workers in
 * their environment (they are started after it): `ok`, or why the build will have no review data.
 */
const BUILD_CHECK = '__VERIFIED_REVIEWS_BUILD_CHECK'

/** Prefix of every line this package writes to a build log. */
export const LOG_PREFIX = '[@verified-reviews/next]'

/** Whether `error`, or an error it was caused by, is Next.js turning a static render dynamic. */
function turnedDynamic(error: unknown): boolean {
  let current = error
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ((current as { digest?: unknown }).digest === 'DYNAMIC_SERVER_USAGE') return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/** Why review data cannot be fetched, in one sentence naming what to fix. */
export function problemOf(error: unknown): string {
  if (turnedDynamic(error)) {
    // Next.js turns an uncached request inside the render of a static page (ISR) into dynamic rendering.
    return (
      'the build prefetch ran in the render of a static page that Next.js turned dynamic for its uncached ' +
      "requests: add `export const dynamic = 'force-static'` beside `export const revalidate` (or enable " +
      'cacheComponents and render the reviews in a `use cache` function)'
    )
  }
  if (error instanceof ValidationError) {
    const missing = missingCredentials()
    if (missing.length > 0) return `${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set`
    return error.message
  }
  if (error instanceof AuthenticationError) {
    return `the token endpoint refused the credentials of client ${readEnvironment().clientId ?? '?'} (${error.message})`
  }
  if (error instanceof APIConnectionError) return `the API cannot be reached (${error.message})`
  return error instanceof Error ? error.message : String(error)
}

/**
 * The problem the check at the start of this build found, which every worker of the build shares;
 * undefined when the credentials were accepted or when no check ran (no `withVerifiedReviews`).
 */
export function buildCheckProblem(): string | undefined {
  const outcome = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[
    BUILD_CHECK
  ]
  return outcome === undefined || outcome === 'ok' ? undefined : outcome
}

/**
 * Checks the credentials once, at the start of `next build` (one token request, no API call), and
 * says the outcome in one line: the origin they were accepted by, or why the pages will have no
 * reviews. With `failOnError` a problem throws, which stops the build. The build workers, started
 * after it with its environment, find the outcome there and do not check again.
 */
export async function checkBuildOnce(write: {
  log(line: string): void
  warn(line: string): void
}): Promise<void> {
  const env = process.env
  if (env[BUILD_CHECK] !== undefined) return
  const { verifyCredentials } = await import('@verified-reviews/core')
  const settings = readEnvironment()
  let problem: string | undefined
  try {
    await verifyCredentials({ maxRetries: 1 })
  } catch (error) {
    problem = problemOf(error)
  }
  env[BUILD_CHECK] = problem ?? 'ok'
  if (problem === undefined) {
    write.log(
      `${LOG_PREFIX} credentials accepted${settings.origin === undefined ? '' : ` by ${settings.origin}`}: ` +
        'the review data of the build is fetched once, for every page and worker',
    )
    return
  }
  if (settings.failOnError) {
    throw new Error(`${LOG_PREFIX} ${problem}: the build stops, since failOnError is on.`)
  }
  write.warn(
    `${LOG_PREFIX} ${problem}: the pages are built without reviews. ` +
      'Set failOnError (or VERIFIED_REVIEWS_FAIL_ON_ERROR=1) to fail the build instead.',
  )
}

const TOLD = Symbol.for('verified-reviews.next.build-problems')

/** The problems this process has told, kept on globalThis: Next.js may load this module in several bundles. */
function told(): Set<string> {
  const holder = globalThis as { [TOLD]?: Set<string> }
  holder[TOLD] ??= new Set()
  return holder[TOLD]
}

/**
 * What a component does, during `next build`, when it cannot get its review data (`from` says whether
 * the build data or an API call failed): with `failOnError` it throws, so the page fails and with it
 * the build; else it says so once per process (once for the build data, whose later failures in this
 * process are the same one retold; once per problem for API calls), not at all when the check at the
 * start of the build has told it, and the component renders nothing instead of a stack trace per page.
 */
export function reportBuildError(error: unknown, component: string, from: 'build data' | 'API'): void {
  const started = buildCheckProblem()
  const problem = started ?? problemOf(error)
  if (readEnvironment().failOnError) {
    throw new Error(
      `${LOG_PREFIX} ${component} has no review data: ${problem}. The build stops, since failOnError is on.`,
      { cause: error },
    )
  }
  const key = from === 'build data' ? from : problem
  if (started !== undefined || told().has(key)) return
  told().add(key)
  console.error(
    `${LOG_PREFIX} no review data for the pages this build process renders: ${problem}. They are built without ` +
      'reviews; set failOnError (or VERIFIED_REVIEWS_FAIL_ON_ERROR=1) to fail the build instead.',
  )
}
