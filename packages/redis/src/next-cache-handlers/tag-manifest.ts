/**
 * The tag manifest both Redis handlers of Next.js's caches read (`use-cache-handler.ts` and
 * `incremental-cache-handler.ts`): the marks `revalidateTag` and `updateTag` leave on tags, in one hash
 * every instance shares, and what they make of an entry (expired, stale or fresh). Also their shared
 * options and the rule that a read Redis cannot answer is a miss.
 *
 * @module
 */
import type { Runner } from '../internal/runner.ts'
import { RedisUnavailableError } from '../redis-unavailable-error.ts'

/** Options of {@link createRedisUseCacheHandler} and {@link createRedisNextCacheHandler}. */
export interface RedisNextCacheOptions {
  /**
   * Names the keys of both handlers under the connection's prefix; give both the same name, so that
   * they share one tag manifest. Builds need no names of their own: Next.js puts the build id in every
   * key of `'use cache'`, and the page handler puts the one of `<distDir>/BUILD_ID` in its keys.
   * @default 'next'
   */
  name?: string
  /**
   * The clock, in milliseconds since the epoch. The instances' clocks should agree to within a small
   * part of a second: a tag revalidated on one instance expires the entries another made before it.
   * @default Date.now
   */
  now?: () => number
}

/** Most tag marks remembered while Redis is unavailable. */
const MAX_PENDING_TAGS = 10_000

/** The marks `revalidateTag` leaves on tags, in one hash that both handlers and every instance share. */
export interface TagManifest {
  /** `[staleAt, expiredAt]` of each tag (undefined where never marked); undefined when Redis is unavailable. */
  read(tags: readonly string[]): Promise<[number | undefined, number | undefined][] | undefined>
  /** Marks the tags: expired at once, or, with `durations`, stale at once and expired after `expire` seconds. */
  mark(tags: readonly string[], durations?: { expire?: number }): Promise<void>
}

/** Milliseconds before marks Redis refused are written again: doubled at each refusal, up to 30 s. */
const MARK_RETRY = { first: 500, max: 30_000 } as const

export function tagManifest(runner: Runner, key: string, now: () => number): TagManifest {
  // Marks Redis did not take (unavailable, or a refused write such as OOM): field → value, written on
  // recovery or at the next retry; until then this instance reads them as if Redis held them.
  const pending = new Map<string, number>()
  let retry: ReturnType<typeof setTimeout> | undefined
  let retryDelay: number = MARK_RETRY.first
  const write = async (marks: Map<string, number>): Promise<void> => {
    if (marks.size === 0) return
    await runner.send(['HSET', key, ...[...marks].flatMap(([field, at]) => [field, String(at)])])
  }
  const keep = (marks: Map<string, number>): void => {
    for (const [field, value] of marks) {
      if (pending.size < MAX_PENDING_TAGS || pending.has(field)) pending.set(field, value)
    }
  }
  const flush = async (): Promise<void> => {
    const marks = new Map(pending)
    await write(marks)
    for (const [field, at] of marks) if (pending.get(field) === at) pending.delete(field)
  }
  const scheduleRetry = (): void => {
    if (retry !== undefined) return
    retry = setTimeout(() => {
      retry = undefined
      flush().then(
        () => {
          retryDelay = MARK_RETRY.first
        },
        () => {
          retryDelay = Math.min(retryDelay * 2, MARK_RETRY.max)
          scheduleRetry()
        },
      )
    }, retryDelay)
    retry.unref?.()
  }
  runner.onRecovery(flush)
  return {
    async read(tags) {
      if (tags.length === 0) return []
      const fields = tags.flatMap((tag) => [`s:${tag}`, `x:${tag}`])
      const values = await unlessUnavailable(async () => times(await runner.send(['HMGET', key, ...fields])))
      if (values === undefined) return undefined
      // A mark not written yet is newer than what Redis holds for its field.
      const marked = (index: number): number | undefined => {
        const local = pending.get(fields[index] as string)
        const stored = values[index]
        return local === undefined ? stored : Math.max(local, stored ?? 0)
      }
      return tags.map((_, index) => [marked(index * 2), marked(index * 2 + 1)])
    },
    async mark(tags, durations) {
      if (tags.length === 0) return
      const at = Math.round(now())
      const marks = new Map<string, number>()
      for (const tag of tags) {
        if (durations === undefined) {
          marks.set(`x:${tag}`, at)
        } else {
          // Stale at once, so the next read regenerates it; expired when the profile's expire has passed.
          marks.set(`s:${tag}`, at)
          if (durations.expire !== undefined) marks.set(`x:${tag}`, at + durations.expire * 1000)
        }
      }
      try {
        await write(marks)
      } catch (error) {
        // No revalidation is lost: kept, and written on recovery (unavailable) or by a retry (a refusal).
        keep(marks)
        if (!(error instanceof RedisUnavailableError)) scheduleRetry()
      }
    },
  }
}

/** Whether the marks say an entry made at `madeAt` is expired, stale, or neither. */
export function freshness(
  marks: readonly [number | undefined, number | undefined][],
  madeAt: number,
  at: number,
): 'expired' | 'stale' | 'fresh' {
  let stale = false
  for (const [staleAt, expiredAt] of marks) {
    // Expired by a tag revalidated after the entry was made, and whose expiry has come.
    if (expiredAt !== undefined && expiredAt <= at && expiredAt > madeAt) return 'expired'
    if (staleAt !== undefined && staleAt > madeAt) stale = true
  }
  return stale ? 'stale' : 'fresh'
}

/** Runs a read in Redis; undefined when Redis is unavailable. */
export async function unlessUnavailable<T>(task: () => Promise<T>): Promise<T | undefined> {
  try {
    return await task()
  } catch (error) {
    if (error instanceof RedisUnavailableError) return undefined
    throw error
  }
}

function times(values: unknown): (number | undefined)[] {
  return (Array.isArray(values) ? values : []).map((value) =>
    typeof value === 'string' && value !== '' ? Number(value) : undefined,
  )
}
