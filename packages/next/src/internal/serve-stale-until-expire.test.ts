import { describe, expect, it } from 'vitest'
import type { UseCacheHandler } from '../cache-handlers.ts'
import { createNextDefaultCacheHandler } from './next-internals.ts'
import { serveStaleUntilExpire, type TimedUseCacheEntry } from './serve-stale-until-expire.ts'

/** Next.js's own in-memory handler, as `next start` makes it. */
function nextMemoryHandler(): UseCacheHandler<TimedUseCacheEntry> {
  return createNextDefaultCacheHandler<TimedUseCacheEntry>(1024 * 1024)
}

function entry(
  text: string,
  ageSeconds: number,
  tags = ['product:SKU-1'],
): TimedUseCacheEntry & { stale: number } {
  return {
    value: new Response(text).body as ReadableStream<Uint8Array>,
    tags,
    stale: 300,
    timestamp: Date.now() - ageSeconds * 1000,
    revalidate: 900,
    expire: 3600,
  }
}

describe('serveStaleUntilExpire', () => {
  it("serves an entry past its revalidate, with its own revalidate, where Next.js's handler drops it", async () => {
    const bare = nextMemoryHandler()
    await bare.set('k', Promise.resolve(entry('10 reviews', 1000)))
    expect(await bare.get('k', [])).toBeUndefined()

    const handler = serveStaleUntilExpire(nextMemoryHandler())
    await handler.set('k', Promise.resolve(entry('10 reviews', 1000)))
    const found = await handler.get('k', [])
    expect(found?.revalidate).toBe(900)
    expect(found?.expire).toBe(3600)
    expect(await new Response(found?.value).text()).toBe('10 reviews')
  })

  it('misses an entry past its expire', async () => {
    const handler = serveStaleUntilExpire(nextMemoryHandler())
    await handler.set('k', Promise.resolve(entry('10 reviews', 4000)))
    expect(await handler.get('k', [])).toBeUndefined()
  })

  it('serves an entry whose tag was revalidated with a profile as one to render again (revalidate -1)', async () => {
    const handler = serveStaleUntilExpire(nextMemoryHandler())
    const tag = `product:stale-${Date.now()}`
    await handler.set('k', Promise.resolve(entry('10 reviews', 10, [tag])))
    await handler.updateTags([tag], { expire: 3600 })
    expect((await handler.get('k', []))?.revalidate).toBe(-1)
  })
})
