import { processState } from '@verified-reviews/core/internal'
import {
  type BuildProblem,
  buildProblemOf,
  buildStops,
  checkBuildCredentials,
  describeBuildProblem,
} from '@verified-reviews/core/prefetch'
import { handedBuildCheck, handedBuildOptions, handToBuildWorkers } from './build-handoff.ts'
import { LOG_PREFIX } from './log-prefix.ts'

/** Whether `error`, or an error it was caused by, is Next.js turning a static render dynamic. */
function turnedDynamic(error: unknown): boolean {
  let current = error
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ((current as { digest?: unknown }).digest === 'DYNAMIC_SERVER_USAGE') return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/** Why review data cannot be fetched, in one sentence naming what to fix (see the core's `buildProblemOf`). */
export function problemOf(error: unknown): BuildProblem {
  if (turnedDynamic(error)) {
    // Next.js turns an uncached request inside the render of a static page (ISR) into dynamic rendering.
    return {
      kind: 'failed',
      message:
        'the build prefetch ran in the render of a static page that Next.js turned dynamic for its uncached ' +
        "requests: add `export const dynamic = 'force-static'` beside `export const revalidate` (or enable " +
        'cacheComponents and render the reviews in a `use cache` function)',
    }
  }
  return buildProblemOf(error)
}

/**
 * The problem the check at the start of this build found, which every worker of the build shares;
 * undefined when the credentials were accepted or when no check ran (no `withVerifiedReviews`).
 */
export function buildCheckProblem(): string | undefined {
  const outcome = handedBuildCheck()
  return outcome === undefined || outcome === 'ok' ? undefined : outcome
}

/**
 * Checks the credentials once, at the start of `next build` (one token request, no API call), and
 * says the outcome in one line: the origin they were accepted by, or why the pages would have no
 * reviews. Refused credentials and an API out of reach throw, which stops the build, unless
 * `failOnError` is off; missing credentials stop it only with `failOnError` on (see the core's
 * `buildStops`). The build workers, started after it with its environment, find the outcome there and
 * do not check again.
 */
export async function checkBuildOnce(write: {
  log(line: string): void
  warn(line: string): void
}): Promise<void> {
  // The outcome is handed to the build workers (started after it), which do not check again.
  if (handedBuildCheck() !== undefined) return
  const check = await checkBuildCredentials({}, handedBuildOptions().failOnError)
  if (check.ok) {
    handToBuildWorkers({ buildCheck: 'ok' })
    write.log(`${LOG_PREFIX} ${check.line}`)
    return
  }
  if (check.stops) {
    const stop = new Error(`${LOG_PREFIX} ${check.line}`)
    // Next.js prints it under its own "Failed to load next.config.ts": without the stack's frames (which
    // are ours and tell a reader nothing), this line is the last one the build prints.
    stop.stack = `Error: ${stop.message}`
    throw stop
  }
  handToBuildWorkers({ buildCheck: check.problem.message })
  write.warn(`${LOG_PREFIX} ${check.line}`)
}

const TOLD = Symbol.for('verified-reviews.next.build-problems')

/**
 * The problems this process has told, kept on globalThis: Next.js may load this module in several bundles
 * (listed with the other such states in core's internal/base/process-state.ts).
 */
function told(): Set<string> {
  return processState(TOLD, () => new Set<string>())
}

/**
 * What a component does, during `next build`, when it cannot get its review data (`from` says whether
 * the build data or an API call failed): nothing more when the check at the start of the build found
 * the problem and said it (the build goes on without reviews); else it throws when the build stops for
 * the problem (refused credentials or an API out of reach by default, anything with `failOnError`; see
 * the core's `buildStops`), so that the page fails and with it the build; else it says so once per
 * process (once for the build data, whose later failures in this process are the same one retold; once
 * per problem for API calls), and the component renders nothing instead of a stack trace per page.
 */
export function reportBuildError(error: unknown, component: string, from: 'build data' | 'API'): void {
  if (buildCheckProblem() !== undefined) return
  const problem = problemOf(error)
  const failOnError = handedBuildOptions().failOnError
  if (buildStops(problem, failOnError)) {
    throw new Error(
      `${LOG_PREFIX} ${component} has no review data: ${describeBuildProblem(problem, failOnError)}`,
      { cause: error },
    )
  }
  const key = from === 'build data' ? from : problem.message
  if (told().has(key)) return
  told().add(key)
  console.error(
    `${LOG_PREFIX} no review data for the pages this build process renders: ` +
      describeBuildProblem(problem, failOnError),
  )
}
