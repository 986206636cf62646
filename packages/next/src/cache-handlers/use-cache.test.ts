import { describe, expect, it } from 'vitest'
import { FAILED_RENDER_TAG } from '../internal/failed-render-tag.ts'
import type { TimedUseCacheEntry } from '../internal/serve-stale-until-expire.ts'
import handler from './use-cache.ts'

function entry(text: string, tags: string[], ageSeconds = 0): TimedUseCacheEntry & { stale: number } {
  return {
    value: new Response(text).body as ReadableStream<Uint8Array>,
    tags,
    stale: 300,
    timestamp: Date.now() - ageSeconds * 1000,
    revalidate: 900,
    expire: 3600,
  }
}

async function text(key: string): Promise<string | undefined> {
  const found = await handler.get(key, [])
  return found === undefined ? undefined : new Response(found.value).text()
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

// One handler per server, as Next.js loads the module: each test has keys and tags of its own.
describe("the 'use cache' handler withVerifiedReviews installs", () => {
  it('keeps serving a good entry past its revalidate over a render from an API failure', async () => {
    await handler.set('stale', Promise.resolve(entry('10 reviews', ['product:SKU-1'], 1000)))
    await handler.set('stale', Promise.resolve(entry('no reviews', ['product:SKU-1', FAILED_RENDER_TAG])))
    expect(await text('stale')).toBe('10 reviews')
  })

  it('stores no render from an API failure after a tag of the good entry was expired at once, and the next good one', async () => {
    const tag = `product:expired-${Date.now()}`
    await handler.set('expired', Promise.resolve(entry('10 reviews', [tag], 1)))
    await handler.updateTags([tag], { expire: 0 })
    // Next.js rounds the mark to the millisecond: it applies from the next one.
    await pause(5)
    expect(await text('expired')).toBeUndefined()
    await handler.set('expired', Promise.resolve(entry('no reviews', [tag, FAILED_RENDER_TAG])))
    // Served to the request that rendered it (Next.js has it), stored nowhere: the next request renders again.
    expect(await text('expired')).toBeUndefined()
    await pause(5)
    await handler.set('expired', Promise.resolve(entry('11 reviews', [tag])))
    expect(await text('expired')).toBe('11 reviews')
  })

  it('stores a render from an API failure where nothing was stored, for its 30 s', async () => {
    await handler.set('first', Promise.resolve(entry('no reviews', [FAILED_RENDER_TAG])))
    expect(await text('first')).toBe('no reviews')
  })
})
