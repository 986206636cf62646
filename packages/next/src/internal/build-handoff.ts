/**
 * What `next.config` hands to the processes Next.js starts after loading it: the build workers of
 * `next build` (and, for the build directory, the server of `next start`). Every variable of that
 * hand-off is written and read here, and nowhere else in this package.
 *
 * Why the environment is the channel: Next.js renders the pages of a build in worker processes that it
 * starts itself once it has loaded `next.config`. They share no memory with the process that ran
 * `withVerifiedReviews` (nor with each other), and Next.js passes them nothing of this package but the
 * environment they inherit. So the config's options, and the outcome of the credentials check at the
 * start of the build, are written into `process.env` before Next.js starts them, and each worker reads
 * them back from its own. The `VERIFIED_REVIEWS_*` variables are settings a site may also set itself
 * (the core's `readEnvironment` reads them, by its rules); the `__VERIFIED_REVIEWS_*` ones are this
 * hand-off's alone.
 */
import { readEnvironment, type VerifiedReviewsEnvironment } from '@verified-reviews/core'

/**
 * The outcome of the credentials check at the start of `next build`: `ok`, or why the build goes on
 * without review data.
 */
const BUILD_CHECK = '__VERIFIED_REVIEWS_BUILD_CHECK'

/**
 * The variable through which a config wrapper (`withRedisCache` of `@verified-reviews/redis/next-config`)
 * names, for the build workers, the module of the replica the build writes into. The Redis package
 * writes it under the same name (it cannot import this package, an optional peer of its), for the same
 * reason; this package reads it here.
 */
export const BUILD_REPLICA_VARIABLE = '__VERIFIED_REVIEWS_BUILD_REPLICA'

/** What the config hands to the processes Next.js starts; a member left out is left as it is. */
export interface BuildHandoff {
  /** `VERIFIED_REVIEWS_FAIL_ON_ERROR`: the `failOnError` option of `withVerifiedReviews`. */
  failOnError?: boolean
  /** `VERIFIED_REVIEWS_BUILD_BRAND_REVIEWS`: its `brandReviews` option. */
  buildBrandReviews?: boolean
  /** `VERIFIED_REVIEWS_BUILD_PRODUCTS`: the file that lists the products of its `products` option. */
  buildProducts?: string
  /** `VERIFIED_REVIEWS_DIST_DIR`: the config's `distDir`. */
  distDir?: string
  /** `__VERIFIED_REVIEWS_BUILD_CHECK`: the outcome of the credentials check, `ok` or the problem. */
  buildCheck?: string
}

/** The process's environment, which the processes Next.js starts after this one inherit. */
function environment(): Record<string, string | undefined> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {}
}

/**
 * Hands `handoff` to the processes Next.js starts after this one: written into this process's
 * environment, which they inherit. Call it before Next.js starts them (in the `next.config` function).
 */
export function handToBuildWorkers(handoff: BuildHandoff): void {
  const env = environment()
  const yesOrNo = (value: boolean) => (value ? '1' : '0')
  if (handoff.failOnError !== undefined) env.VERIFIED_REVIEWS_FAIL_ON_ERROR = yesOrNo(handoff.failOnError)
  if (handoff.buildBrandReviews !== undefined)
    env.VERIFIED_REVIEWS_BUILD_BRAND_REVIEWS = yesOrNo(handoff.buildBrandReviews)
  if (handoff.buildProducts !== undefined) env.VERIFIED_REVIEWS_BUILD_PRODUCTS = handoff.buildProducts
  if (handoff.distDir !== undefined) env.VERIFIED_REVIEWS_DIST_DIR = handoff.distDir
  if (handoff.buildCheck !== undefined) env[BUILD_CHECK] = handoff.buildCheck
}

/** What this process was handed (or the site set), the `VERIFIED_REVIEWS_*` variables by the core's rules. */
export type HandedBuildOptions = Pick<
  VerifiedReviewsEnvironment,
  'failOnError' | 'buildBrandReviews' | 'buildProducts' | 'distDir'
>

/**
 * The options the config handed to this process, read from its environment.
 *
 * @throws ValidationError naming the variable, when one the site set breaks the core's rules.
 */
export function handedBuildOptions(): HandedBuildOptions {
  const { failOnError, buildBrandReviews, buildProducts, distDir } = readEnvironment(environment())
  return { failOnError, buildBrandReviews, buildProducts, distDir }
}

/** The outcome of the credentials check handed to this process; undefined when no check ran in this build. */
export function handedBuildCheck(): string | undefined {
  return environment()[BUILD_CHECK]
}

/** The module of the replica the build writes into; undefined when no config wrapper named one. */
export function handedReplicaModule(): string | undefined {
  const value = environment()[BUILD_REPLICA_VARIABLE]
  return value === undefined || value === '' ? undefined : value
}

/**
 * Set in the `next build` process once it has started the fetch ahead of the pages (`build-ahead.ts`), to
 * that process's pid: the processes Next.js starts after it, which load the config again, inherit it and
 * start none of their own.
 */
const BUILD_AHEAD = '__VERIFIED_REVIEWS_BUILD_AHEAD'

/** Records, for this process and those it starts, that the fetch ahead of the pages was started. */
export function handBuildAhead(): void {
  environment()[BUILD_AHEAD] = String(process.pid)
}

/** Whether this process, or the one that started it, started the fetch ahead of the pages. */
export function buildAheadStarted(): boolean {
  return environment()[BUILD_AHEAD] !== undefined
}
