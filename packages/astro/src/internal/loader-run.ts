import { type ClientOptions, createClient, type VerifiedReviewsClient } from '@verified-reviews/core'
import type { LoaderContext } from 'astro/loaders'
import { buildWithoutReviewData, type FailureSettings, reviewDataFailed } from './build-check.ts'
import { projectEnvironment } from './env.ts'
import { integrationInstalled, sharedClient } from './shared.ts'

/** What one run of a content loader works with. */
export interface LoaderRun<C> {
  client: C
  /** Whether the integration is installed: the loader then shares its client, catalog and failure policy. */
  integration: boolean
  /** Reports a failure through the loader's logger: stops the build, or says it and keeps the collection. */
  failed(what: string, error: unknown): void
}

/**
 * Resolves what a content loader runs with, once per run: the client of its options, else the
 * integration's, else one of its own from the project's `VERIFIED_REVIEWS_*` variables (environment and
 * `.env` files), so that a loader declared in `content.config.ts` works without the integration; its
 * failures go to its own `logger`, by the integration's `failOnError`, else `VERIFIED_REVIEWS_FAIL_ON_ERROR`.
 * Undefined when the integration's check at the start of the build found that it has no review data
 * (and said so): the loader then fetches nothing.
 */
export function loaderRun<C>(
  context: Pick<LoaderContext, 'config' | 'logger' | 'watcher'>,
  given: C | undefined,
): LoaderRun<C | VerifiedReviewsClient> | undefined {
  if (integrationInstalled()) {
    if (given === undefined && buildWithoutReviewData()) return undefined
    return {
      client: given ?? sharedClient(),
      integration: true,
      failed: (what, error) => reviewDataFailed(what, error, 'throw', context.logger),
    }
  }
  // Without the integration: `astro dev` gives loaders a file watcher, `astro build` and `astro sync` none.
  const command = context.watcher === undefined ? 'build' : 'dev'
  const environment = projectEnvironment(
    context.config.root,
    command === 'dev' ? 'development' : 'production',
  )
  const clientOptions: ClientOptions = environment.client
  const settings: FailureSettings = {
    command,
    failOnError: environment.failOnError,
    clientOptions,
    settingNames: {},
    buildProblem: undefined,
    toldFailures: new Set(),
  }
  return {
    client: given ?? createClient(clientOptions),
    integration: false,
    failed: (what, error) => reviewDataFailed(what, error, 'throw', context.logger, settings),
  }
}
