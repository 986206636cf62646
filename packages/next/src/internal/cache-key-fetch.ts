/**
 * Keeps the access token out of Next.js's data cache keys. Next.js builds the key of a cached fetch from
 * its URL and `init.headers`, so a read sent with `authorization: Bearer <token>` is cached anew after
 * every token renewal, each entry a copy of the last. A cached read is therefore sent with the client's
 * id in its headers instead (what tells one account's answers from another's), and the token is added
 * below Next.js's fetch, by a dispatcher over Node.js's own (undici's global dispatcher): the API gets
 * the token and not the id header, Next.js's key gets the id and not the token. Where there is no such
 * dispatcher (an edge runtime), the read is sent as it is.
 */
import { type Dispatcher, nodeGlobalDispatcher } from './undici-global-dispatcher.ts'

/** The header that stands for the credentials in the cache key; it never reaches the API. */
export const CLIENT_KEY_HEADER = 'x-verified-reviews-client'

type Fetch = (input: string, init: RequestInit) => Promise<Response>

/** `headers` as undici hands them to a dispatcher, without `drop` and with `name: value` added. */
function withHeader(headers: unknown, drop: string, name: string, value: string): unknown {
  if (headers === undefined || headers === null) return { [name]: value }
  if (Array.isArray(headers)) {
    // Flat `[name, value, name, value…]`, as undici's dispatch API takes them.
    const kept: unknown[] = []
    for (let index = 0; index + 1 < headers.length; index += 2) {
      if (String(headers[index]).toLowerCase() !== drop) kept.push(headers[index], headers[index + 1])
    }
    return [...kept, name, value]
  }
  if (typeof headers === 'object') {
    const kept = Object.fromEntries(
      Object.entries(headers as Record<string, unknown>).filter(([key]) => key.toLowerCase() !== drop),
    )
    return { ...kept, [name]: value }
  }
  return headers
}

/** A dispatcher that sends each request through `base` with `authorization` instead of the key header. */
function authorizing(base: Dispatcher, authorization: string): Dispatcher {
  return {
    dispatch: (options, handler) =>
      base.dispatch(
        {
          ...options,
          headers: withHeader(options.headers, CLIENT_KEY_HEADER, 'authorization', authorization),
        },
        handler,
      ),
  }
}

/**
 * `fetch`, except that a read Next.js caches (one with `next` options) carrying `authorization` is sent
 * with `clientKey` in {@link CLIENT_KEY_HEADER} instead, and the token is added by a dispatcher below
 * Next.js's fetch, so that a token renewal keeps every cache key.
 */
export function cacheKeyFetch(fetch: Fetch, clientKey: () => string): Fetch {
  return (input, init) => {
    const headers = init.headers as Record<string, string> | undefined
    const authorization = headers?.authorization
    const base = nodeGlobalDispatcher()
    if (!('next' in init) || authorization === undefined || base === undefined) return fetch(input, init)
    const { authorization: _token, ...rest } = headers as Record<string, string>
    return fetch(input, {
      ...init,
      headers: { ...rest, [CLIENT_KEY_HEADER]: clientKey() },
      dispatcher: authorizing(base, authorization),
    } as RequestInit)
  }
}
