import type { ClientOptions } from '@verified-reviews/core'
import { type ProductReplica, processState } from '@verified-reviews/core/internal'

/** What the clients of this package may share with the other instances of a site. */
export type SharedClientState = Pick<ClientOptions, 'tokenStore' | 'rateBudget'> & {
  /**
   * The site's replica of the account that every instance reads and the revalidate route syncs
   * (`createRedisReplica()` of `@verified-reviews/redis`). Without it, instances that share a token or
   * a rate budget read the API rather than a replica of their own, which the others would not see.
   */
  replica?: ProductReplica | undefined
}

interface Shared {
  /** Counts the calls of {@link shareClientState}, so that each call's clients are built anew. */
  generation: number
  state: SharedClientState
}

// On globalThis: instrumentation.ts and the routes are bundled apart, in one process (this and every other
// state kept on globalThis are listed in core's internal/base/process-state.ts).
const SHARED = Symbol.for('verified-reviews.next.shared-client-state')

/** What {@link shareClientState} was given, with the count of its calls: one per process. */
export const sharedState = (): Shared => processState(SHARED, () => ({ generation: 0, state: {} }))

/**
 * Makes the clients of this package (the components, the reviews route, the revalidate route, the
 * build prefetch, purchase events) share their access token and rate budget with the other instances
 * of the site, through the stores given: on several servers, N instances then fetch one token, not N,
 * and together stay under the API's limit. Call it once per server process, before the first request:
 * in `register()` of `instrumentation.ts`. The clients built before it are replaced. With `replica`,
 * every instance reads the reviews from that one replica (filled from the build's store on first use,
 * synced by the revalidate route), and no render calls the API.
 *
 * @example
 * ```ts
 * // instrumentation.ts
 * export async function register() {
 *   if (process.env.NEXT_RUNTIME !== 'nodejs') return
 *   const { shareClientState } = await import('@verified-reviews/next/advanced')
 *   const { createRedisConnection, createRedisReplica, redisClientOptions } = await import('@verified-reviews/redis')
 *   const redis = createRedisConnection()
 *   shareClientState({ ...redisClientOptions(redis, { cache: false }), replica: createRedisReplica(redis) })
 * }
 * ```
 */
export function shareClientState(state: SharedClientState): void {
  const current = sharedState()
  const next: SharedClientState = {}
  if (state.tokenStore !== undefined) next.tokenStore = state.tokenStore
  if (state.rateBudget !== undefined) next.rateBudget = state.rateBudget
  if (state.replica !== undefined) next.replica = state.replica
  current.generation++
  current.state = next
}

/** What {@link shareClientState} was given; empty before (one instance on its own). */
export function sharedClientState(): SharedClientState {
  return sharedState().state
}
