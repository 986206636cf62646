import {
  buildProblemOf,
  buildStops,
  checkBuildCredentials,
  describeBuildProblem,
} from '@verified-reviews/core/prefetch'
import type { AstroIntegrationLogger } from 'astro'
import { type SharedState, shared } from './shared.ts'

/** Where a line goes when the integration is not installed: Astro hands its logger to integrations only. */
const NO_INTEGRATION_LOGGER = {
  error: (line: string) => console.warn(`[@verified-reviews/astro] ${line}`),
}

/**
 * The error that stops `astro build` because its review data cannot be fetched: its message is the one
 * line that says why and what to change; Astro prints it, and the build exits with a non-zero code.
 */
export class ReviewDataError extends Error {
  override name = 'ReviewDataError'

  constructor(message: string) {
    super(message)
    // The message says what to change; Astro would print a stack trace into this package under it.
    this.stack = ''
  }
}

/**
 * Checks, at the start of `astro build`, that the build can fetch review data (one token request, no
 * API call) with the integration's client, and says the outcome once through the integration's logger:
 * the origin that accepted the credentials, or the problem. When the build stops for it (refused
 * credentials or an API out of reach, unless `failOnError` is off; anything with `failOnError` on),
 * it throws a {@link ReviewDataError}; else the build goes on without reviews, and the loaders,
 * components and injection of this build fetch nothing and say nothing more.
 */
export async function checkBuild(logger: AstroIntegrationLogger): Promise<void> {
  const state = shared()
  const check = await checkBuildCredentials(
    {
      ...(state.clientOptions === undefined ? {} : { client: state.clientOptions }),
      names: state.settingNames,
    },
    state.failOnError,
  )
  if (check.ok) {
    logger.info(check.line)
    return
  }
  if (check.stops) throw new ReviewDataError(check.line)
  state.buildProblem = check.problem
  logger.warn(check.line)
}

/** Whether this is an `astro build` that goes on without review data, the check at its start having said why. */
export function buildWithoutReviewData(): boolean {
  const state = shared()
  return state.command === 'build' && state.buildProblem !== undefined
}

/** What decides the fate of a failure: the integration's state, or a loader's own settings without it. */
export type FailureSettings = Pick<
  SharedState,
  'command' | 'failOnError' | 'clientOptions' | 'settingNames' | 'buildProblem' | 'toldFailures'
>

/**
 * What a loader, a component or the injection does when it cannot get review data (`what` leads the
 * line: `ProductReviews has no review data`). During `astro build`: nothing more when the check at the
 * start found the problem and said it; a {@link ReviewDataError} when the build stops for the problem
 * (see the core's `buildStops`); else one line in the build log, once per line. Outside a build
 * (`astro dev`, or without the integration) the loaders rethrow the error (`outsideBuild: 'throw'`),
 * for Astro to show it as it shows any loader's, and the components write one line (`'log'`).
 *
 * @param logger where the line goes: a loader's own logger, else the integration's.
 * @param settings the integration's state, or those a loader resolved for itself without it.
 */
export function reviewDataFailed(
  what: string,
  error: unknown,
  outsideBuild: 'log' | 'throw',
  logger: Pick<AstroIntegrationLogger, 'error'> | undefined = shared().logger,
  settings: FailureSettings = shared(),
): void {
  if (settings.command !== 'build' && outsideBuild === 'throw') throw error
  if (settings.command === 'build' && settings.buildProblem !== undefined) return
  const problem = buildProblemOf(error, {
    ...(settings.clientOptions === undefined ? {} : { client: settings.clientOptions }),
    names: settings.settingNames,
  })
  const line =
    settings.command === 'build'
      ? `${what}: ${describeBuildProblem(problem, settings.failOnError)}`
      : `${what}: ${problem.message}`
  if (settings.command === 'build' && buildStops(problem, settings.failOnError)) {
    throw new ReviewDataError(line)
  }
  if (settings.toldFailures.has(line)) return
  settings.toldFailures.add(line)
  ;(logger ?? NO_INTEGRATION_LOGGER).error(line)
}
