import { IncrementalCache } from 'next/dist/server/lib/incremental-cache/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type HeaderRecorder, startHeaderRecorder } from '../../../../test/fixtures/header-recorder.ts'
import { CLIENT_KEY_HEADER, cacheKeyFetch } from './cache-key-fetch.ts'

let server: HeaderRecorder

beforeAll(async () => {
  server = await startHeaderRecorder('{}')
})

afterAll(() => server.close())

/** Next.js's own cache key of a fetch (the data cache's `generateCacheKey`). */
function nextCacheKey(url: string, init: RequestInit): Promise<string> {
  const generate = IncrementalCache.prototype.generateCacheKey as (
    url: string,
    init: RequestInit,
  ) => Promise<string>
  return generate.call({ fetchCacheKeyPrefix: '' }, url, { ...init })
}

describe('cacheKeyFetch', () => {
  it('gives a cached read the same Next.js cache key whatever its token, and still sends the token', async () => {
    const seen: RequestInit[] = []
    const send = cacheKeyFetch(
      (input, init) => {
        seen.push(init)
        return fetch(input, init)
      },
      () => 'shop-1',
    )
    const read = (token: string) =>
      send(`${server.origin}/products`, {
        method: 'GET',
        headers: { accept: 'application/json', authorization: `Bearer ${token}` },
        next: { tags: ['verified-reviews:product:SKU-1'], revalidate: 3600 },
      } as RequestInit)
    await (await read('first-token')).text()
    await (await read('renewed-token')).text()

    const [first, second] = seen as [RequestInit, RequestInit]
    expect(await nextCacheKey(`${server.origin}/products`, first)).toBe(
      await nextCacheKey(`${server.origin}/products`, second),
    )
    expect(JSON.stringify(first.headers)).not.toContain('first-token')
    // The API got each token, and not the header that stands for the account in the key.
    expect(server.received.map((headers) => headers.authorization)).toEqual([
      'Bearer first-token',
      'Bearer renewed-token',
    ])
    expect(server.received.every((headers) => headers[CLIENT_KEY_HEADER] === undefined)).toBe(true)
  })

  it('keeps the reads of two accounts apart in the cache', async () => {
    const seen: RequestInit[] = []
    const init = {
      headers: { authorization: 'Bearer token' },
      next: { revalidate: 3600 },
    } as RequestInit
    for (const account of ['shop-1', 'shop-2']) {
      const send = cacheKeyFetch(
        (_input, sent) => {
          seen.push(sent)
          return Promise.resolve(new Response('{}'))
        },
        () => account,
      )
      await send(`${server.origin}/products`, init)
    }
    const [one, two] = seen as [RequestInit, RequestInit]
    expect(await nextCacheKey(`${server.origin}/products`, one)).not.toBe(
      await nextCacheKey(`${server.origin}/products`, two),
    )
  })

  it('sends a request Next.js does not cache (a token request, a sync) as it is', async () => {
    const seen: RequestInit[] = []
    const send = cacheKeyFetch(
      (_input, init) => {
        seen.push(init)
        return Promise.resolve(new Response('{}'))
      },
      () => 'shop-1',
    )
    const init = { headers: { authorization: 'Bearer token' }, cache: 'no-store' } as RequestInit
    await send(`${server.origin}/products`, init)
    expect(seen).toEqual([init])
  })
})
