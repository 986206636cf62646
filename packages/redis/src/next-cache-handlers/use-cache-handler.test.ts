import { describe, expect, it } from 'vitest'
import { connectionsFor, redisForFile } from '../../../../test/fixtures/redis.ts'
import { createRedisUseCacheHandler, type UseCacheEntry } from './use-cache-handler.ts'

const redis = redisForFile()
/** The tag `markFailedRender` of `@verified-reviews/next` gives a render from an API failure. */
const FAILED_RENDER_TAG = 'verified-reviews:failed-render'
const connect = connectionsFor(redis)

/** The handler of one `next start` instance, on its own connection, with a clock the test moves. */
function instance(clock = { now: Date.now() }) {
  return createRedisUseCacheHandler(connect(), { now: () => clock.now })
}

function entry(text: string, fields: Partial<Omit<UseCacheEntry, 'value'>> = {}): UseCacheEntry {
  return {
    value: new Response(text).body as ReadableStream<Uint8Array>,
    tags: ['verified-reviews:product:SKU-001'],
    stale: 300,
    timestamp: Date.now(),
    expire: 3600,
    revalidate: 900,
    ...fields,
  }
}

async function text(found: UseCacheEntry | undefined): Promise<string | undefined> {
  return found === undefined ? undefined : new Response(found.value).text()
}

describe('createRedisUseCacheHandler', () => {
  it('gives an entry one instance stored to another, value and metadata', async () => {
    const [a, b] = [instance(), instance()]
    const stored = entry('<section>12 reviews</section>')
    const { value: _, ...metadata } = stored
    await a.set('build-1:key', Promise.resolve(stored))
    const found = await b.get('build-1:key', [])
    expect(await text(found)).toBe('<section>12 reviews</section>')
    expect(found).toMatchObject(metadata)
    // A new stream each time: Next.js reads each one once.
    expect(await text(await b.get('build-1:key', []))).toBe('<section>12 reviews</section>')
  })

  it('keeps binary values byte for byte', async () => {
    const bytes = new Uint8Array([0, 255, 1, 254, 0x80, 10, 13])
    const [a, b] = [instance(), instance()]
    await a.set(
      'binary',
      Promise.resolve({ ...entry(''), value: new Response(bytes).body as ReadableStream<Uint8Array> }),
    )
    const found = await b.get('binary', [])
    expect(new Uint8Array(await new Response(found?.value).arrayBuffer())).toEqual(bytes)
  })

  it('misses a key nobody stored', async () => {
    expect(await instance().get('nothing', [])).toBeUndefined()
  })

  it('expires an entry from Redis at its expire', async () => {
    const a = instance()
    await a.set('short', Promise.resolve(entry('x', { timestamp: Date.now(), expire: 60 })))
    const ttl = Number((await redis.command('PTTL', 'vr:next:use-cache:short')).slice(1))
    expect(ttl).toBeGreaterThan(55_000)
    expect(ttl).toBeLessThanOrEqual(60_000)
  })

  it('stores no dynamic entry (expire 0), yet reads its stream', async () => {
    const a = instance()
    let pulled = false
    const value = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled = true
        controller.enqueue(new Uint8Array([1]))
        controller.close()
      },
    })
    await a.set('dynamic', Promise.resolve({ ...entry(''), value, expire: 0 }))
    expect(pulled).toBe(true)
    expect(await a.get('dynamic', [])).toBeUndefined()
  })

  it('makes a read of a key being stored wait for the value', async () => {
    const a = instance()
    let resolve: (value: UseCacheEntry) => void = () => {}
    const pending = new Promise<UseCacheEntry>((done) => {
      resolve = done
    })
    const storing = a.set('pending', pending)
    const reading = a.get('pending', [])
    resolve(entry('rendered'))
    await storing
    expect(await text(await reading)).toBe('rendered')
  })

  it('keeps nothing of a value that failed to render', async () => {
    const a = instance()
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('render failed'))
      },
    })
    await a.set('failed', Promise.resolve({ ...entry(''), value: failing }))
    expect(await a.get('failed', [])).toBeUndefined()
  })

  it('serves an entry once more, to be regenerated, after its tag was revalidated with a profile on another instance', async () => {
    const clock = { now: Date.now() }
    const [a, b] = [instance(clock), instance(clock)]
    await a.set('page', Promise.resolve(entry('old', { timestamp: clock.now - 1000 })))
    await a.set(
      'other',
      Promise.resolve(
        entry('other', { timestamp: clock.now - 1000, tags: ['verified-reviews:product:SKU-002'] }),
      ),
    )
    await b.updateTags(['verified-reviews:product:SKU-001'], { expire: 31_536_000 })
    const found = await a.get('page', [])
    expect(await text(found)).toBe('old')
    expect(found?.revalidate).toBe(-1)
    expect((await a.get('other', []))?.revalidate).toBe(900)
  })

  it('misses an entry whose tag another instance expired at once (updateTag)', async () => {
    const clock = { now: Date.now() }
    const [a, b] = [instance(clock), instance(clock)]
    await a.set('page', Promise.resolve(entry('old', { timestamp: clock.now - 1000 })))
    await b.updateTags(['verified-reviews:product:SKU-001'])
    expect(await a.get('page', [])).toBeUndefined()
  })

  it('reads an entry made after its tag was revalidated as fresh', async () => {
    const clock = { now: Date.now() }
    const [a, b] = [instance(clock), instance(clock)]
    await b.updateTags(['verified-reviews:product:SKU-001'])
    clock.now += 10
    await a.set('page', Promise.resolve(entry('new', { timestamp: clock.now })))
    const found = await b.get('page', [])
    expect(await text(found)).toBe('new')
    expect(found?.revalidate).toBe(900)
  })

  it('misses an entry once the expire of its tag revalidation has come', async () => {
    const clock = { now: Date.now() }
    const [a, b] = [instance(clock), instance(clock)]
    await a.set('page', Promise.resolve(entry('old', { timestamp: clock.now - 1000 })))
    await b.updateTags(['verified-reviews:product:SKU-001'], { expire: 60 })
    expect((await a.get('page', []))?.revalidate).toBe(-1)
    clock.now += 61_000
    expect(await a.get('page', [])).toBeUndefined()
  })

  it('keeps a good entry whose tag another instance expired at once over a render from an API failure, until a good one comes', async () => {
    const clock = { now: Date.now() }
    const [a, b] = [instance(clock), instance(clock)]
    await a.set('reviews', Promise.resolve(entry('10 reviews', { timestamp: clock.now - 1000 })))
    // revalidateTag(tag, { expire: 0 }): no instance serves the good entry any more.
    await b.updateTags(['verified-reviews:product:SKU-001'], { expire: 0 })
    clock.now += 1000
    expect(await a.get('reviews', [])).toBeUndefined()
    const failedTags = ['verified-reviews:product:SKU-001', FAILED_RENDER_TAG]
    await b.set('reviews', Promise.resolve(entry('no reviews', { timestamp: clock.now, tags: failedTags })))
    // Served to the request that rendered it, stored nowhere: every instance renders again.
    expect(await a.get('reviews', [])).toBeUndefined()
    // Still in Redis, untouched, until its own expire.
    const stored = await redis.command('GET', 'vr:next:use-cache:reviews')
    expect(stored).toContain(Buffer.from('10 reviews').toString('base64'))
    clock.now += 1000
    await b.set('reviews', Promise.resolve(entry('11 reviews', { timestamp: clock.now })))
    expect(await text(await a.get('reviews', []))).toBe('11 reviews')
  })

  it('stores a render from an API failure where the key holds nothing or another failed render', async () => {
    const a = instance()
    const failed = (text: string) => entry(text, { tags: [FAILED_RENDER_TAG] })
    await a.set('first-render', Promise.resolve(failed('no reviews')))
    expect(await text(await a.get('first-render', []))).toBe('no reviews')
    await a.set('first-render', Promise.resolve(failed('no reviews again')))
    expect(await text(await a.get('first-render', []))).toBe('no reviews again')
  })

  it('gives the newest expiry of the soft tags, 0 for tags never revalidated', async () => {
    const clock = { now: 1_800_000_000_000 }
    const [a, b] = [instance(clock), instance(clock)]
    expect(await a.getExpiration(['_N_T_/en/products/SKU-001'])).toBe(0)
    await b.updateTags(['_N_T_/en/products/SKU-001'])
    clock.now += 5
    await b.updateTags(['_N_T_/layout'])
    expect(await a.getExpiration(['_N_T_/en/products/SKU-001', '_N_T_/layout', '_N_T_/fr'])).toBe(
      1_800_000_000_005,
    )
    expect(await a.getExpiration([])).toBe(0)
  })

  it('misses while Redis is down, and writes the tags revalidated meanwhile once it answers', async () => {
    const clock = { now: Date.now() }
    const a = createRedisUseCacheHandler(connect({ commandTimeout: 200, retryInterval: 50 }), {
      now: () => clock.now,
    })
    const b = instance(clock)
    await a.set('page', Promise.resolve(entry('old', { timestamp: clock.now - 1000 })))
    redis.pause()
    try {
      expect(await a.get('page', [])).toBeUndefined()
      await a.updateTags(['verified-reviews:product:SKU-001'])
      await a.set('lost', Promise.resolve(entry('not shared')))
    } finally {
      redis.resume()
    }
    // The first command after the outage brings the remembered tag marks to Redis.
    for (let attempt = 0; attempt < 50; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 60))
      await a.get('nothing', [])
      if ((await b.get('page', [])) === undefined) break
    }
    expect(await b.get('page', [])).toBeUndefined()
  })
})
