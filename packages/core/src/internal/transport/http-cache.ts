import { cachedRead } from '../cache/read-through.ts'
import { sendLive } from './http-retry.ts'
import type { HttpSettings, Incoming, Outgoing } from './http-types.ts'
import type { RequestOptions } from './request-options.ts'

/** An answer as a cache store keeps it (JSON, so headers become pairs). */
interface StoredAnswer {
  status: number
  headers: [string, string][]
  url: string
  text: string
}

/**
 * Sends a GET through the client's cache when it has one and the call does not opt out: a fresh
 * answer comes from the store, a missing one is sent for and stored. Other requests go straight out.
 */
export async function send(
  settings: HttpSettings,
  out: Outgoing,
  options: RequestOptions = {},
): Promise<Incoming> {
  const cache = settings.cache
  if (cache === undefined || out.method !== 'GET' || options.cache === false)
    return sendLive(settings, out, options)
  const own = options.cache ?? {}
  const url = new URL(out.url)
  // The Genesis token changes daily and derives from a secret: it has no place in a cache key.
  url.searchParams.delete('token')
  const key = `${cache.keyPrefix}${out.service.source}:${url.href}`
  const tags = [...cache.tags, ...(own.tags ?? [])]
  const stored = await cachedRead<StoredAnswer>(
    cache.store,
    key,
    async () => {
      const answer = await sendLive(settings, out, options)
      return { status: answer.status, headers: [...answer.headers], url: answer.url, text: answer.text }
    },
    {
      ttl: own.ttl ?? cache.ttl,
      staleWhileRevalidate: own.staleWhileRevalidate ?? cache.staleWhileRevalidate,
      staleIfError: own.staleIfError ?? cache.staleIfError,
      ...(tags.length > 0 ? { tags } : {}),
      ...(cache.onError === undefined ? {} : { onError: cache.onError }),
    },
  )
  return { status: stored.status, headers: new Headers(stored.headers), url: stored.url, text: stored.text }
}
