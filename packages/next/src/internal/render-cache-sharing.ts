import { processState } from '@verified-reviews/core/internal'
import { LOG_PREFIX } from './log-prefix.ts'
import { isBuildPhase } from './phase.ts'
import { sharedClientState } from './shared-client-state.ts'

interface RenderCacheSharing {
  /** Set by a cache handler whose entries other instances read (the Redis handlers of `withRedisCache`). */
  shared: boolean
  /** Whether the log has said that this server's own replica is refused. */
  told: boolean
}

// One per process: Next.js loads the cache handlers by their path, apart from the bundles of the pages
// that read the replica (listed with the other such states in core's internal/base/process-state.ts).
const SHARED_RENDER_CACHE = Symbol.for('verified-reviews.next.shared-render-cache')
const sharing = (): RenderCacheSharing =>
  processState(SHARED_RENDER_CACHE, () => ({ shared: false, told: false }))

/**
 * Tells, once per process and as an error, that this server's render cache is shared while its
 * replica would be its own: pages read the API, and what to do about it.
 */
export function tellLocalReplicaRefused(): void {
  const state = sharing()
  if (state.told) return
  state.told = true
  console.error(
    `${LOG_PREFIX} This server shares its render cache with other instances (the Redis cache handlers of ` +
      "withRedisCache) but not its replica: renders from this server's own replica file would be stored " +
      "for every instance while the others' copies differ, so pages read the API instead. Share the " +
      'replica: in register() of instrumentation.ts, call shareClientState({ replica: createRedisReplica(redis) }) ' +
      '(@verified-reviews/next/advanced, @verified-reviews/redis).',
  )
}

/**
 * Marks this process's render cache as shared by several instances. A cache handler module whose entries
 * other instances read calls it when it loads (`withRedisCache`'s do): from then on, the site's replica
 * must be one that every instance reads (`shareClientState({ replica })`), and pages read the API rather
 * than this server's own replica file, whose renders the other instances would serve while their own
 * copies differ. `next start` runs `register()` of `instrumentation.ts` before it loads the cache
 * handlers, so a server whose `register()` gave no replica says so here, at its start, once.
 */
export function markRenderCacheShared(): void {
  sharing().shared = true
  // Said at the start of `next start` only: `next build` runs no `register()` and reads no replica, and
  // `next dev` may load the handlers before it; a render says it there, once.
  const serving = process.env.NODE_ENV === 'production' && !isBuildPhase()
  if (serving && sharedClientState().replica === undefined) tellLocalReplicaRefused()
}

/** Whether a cache handler of this process marked the render cache as shared ({@link markRenderCacheShared}). */
export function renderCacheShared(): boolean {
  return sharing().shared
}
