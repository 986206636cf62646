import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { connectionsFor, redisForFile } from '../../../../test/fixtures/redis.ts'
import { createRedisNextCacheHandler, type NextCacheEntry } from './incremental-cache-handler.ts'

const redis = redisForFile()
const connect = connectionsFor(redis)

/** A page as Next.js stores it: HTML, RSC payload and segments as bytes, tags in a header. */
function page(html: string, tags = 'verified-reviews:product:SKU-001,_N_T_/en/products/SKU-001') {
  return {
    kind: 'APP_PAGE',
    html,
    rscData: Buffer.from(`rsc:${html}`),
    segmentData: new Map([['/_tree', Buffer.from([0, 1, 2, 255])]]),
    headers: { 'x-next-cache-tags': tags },
    status: 200,
  }
}

const PAGE = { kind: 'APP_PAGE', isRoutePPREnabled: true }

describe('createRedisNextCacheHandler', () => {
  /** The handler class of one instance; Next.js builds one handler per request. */
  function server(clock = { now: Date.now() }, built: Map<string, NextCacheEntry> = new Map()) {
    const Handler = createRedisNextCacheHandler(connect(), {
      now: () => clock.now,
      fallback: () => ({ get: async (key) => built.get(key) ?? null }),
    })
    return () => new Handler({})
  }

  it('gives a page one instance stored to another, bytes and maps included', async () => {
    const [a, b] = [server(), server()]
    await a().set('/route-cache/APP_PAGE/x/$/en/products/SKU-001', page('<p>new</p>'), {
      cacheControl: { revalidate: 3600, expire: 86_400 },
    })
    const found = await b().get('/route-cache/APP_PAGE/x/$/en/products/SKU-001', PAGE)
    expect(found?.value).toEqual(page('<p>new</p>'))
    expect(found?.cacheControl).toEqual({ revalidate: 3600, expire: 86_400 })
    expect(found?.lastModified).toBeGreaterThan(0)
  })

  it('keeps an entry in Redis for its expire, else for the ttl', async () => {
    const a = server()
    await a().set('long', page('x'), { cacheControl: { revalidate: 60, expire: 120 } })
    await a().set('none', page('y'), {})
    const pttl = async (key: string) => Number((await redis.command('PTTL', `vr:next:cache:${key}`)).slice(1))
    expect(await pttl('long')).toBeGreaterThan(115_000)
    expect(await pttl('long')).toBeLessThanOrEqual(120_000)
    expect(await pttl('none')).toBeGreaterThan(2_591_000_000)
  })

  it('reads a page of the build from the fallback while Redis holds none', async () => {
    const built = new Map([
      ['/en', { lastModified: Date.now() - 60_000, value: page('<p>built</p>', '_N_T_/en') }],
    ])
    const found = await server(undefined, built)().get('/en', PAGE)
    expect(found?.value?.html).toBe('<p>built</p>')
    expect(await server()().get('/en', PAGE)).toBeNull()
  })

  it('serves a page of the build stale, to be rendered again, once another instance revalidated one of its tags with a profile', async () => {
    const clock = { now: Date.now() }
    const built = new Map([
      ['/en/products/SKU-001', { lastModified: clock.now - 60_000, value: page('<p>built 1</p>') }],
      [
        '/en/products/SKU-002',
        {
          lastModified: clock.now - 60_000,
          value: page('<p>built 2</p>', 'verified-reviews:product:SKU-002'),
        },
      ],
    ])
    const [a, b] = [server(clock, built), server(clock, built)]
    await b().revalidateTag(['verified-reviews:product:SKU-001'], { expire: 31_536_000 })
    // Stale (rendered again while it is served), though the page of the build says no lifetime.
    const found = await a().get('/en/products/SKU-001', PAGE)
    expect(found?.value?.html).toBe('<p>built 1</p>')
    expect(found?.cacheControl).toEqual({ revalidate: 1, expire: 2_592_000 })
    expect(found?.lastModified).toBeLessThan(clock.now - 1000)
    expect((await a().get('/en/products/SKU-002', PAGE))?.lastModified).toBe(clock.now - 60_000)
  })

  it('has a page rendered again before the answer once another instance expired one of its tags', async () => {
    const clock = { now: Date.now() }
    const built = new Map([
      ['/en/products/SKU-001', { lastModified: clock.now - 60_000, value: page('<p>built 1</p>') }],
    ])
    const [a, b] = [server(clock, built), server(clock, built)]
    await b().revalidateTag(['verified-reviews:product:SKU-001'])
    expect((await a().get('/en/products/SKU-001', PAGE))?.lastModified).toBe(-1)
  })

  it('reads a page rendered after the revalidation as fresh, on every instance', async () => {
    const clock = { now: Date.now() }
    const [a, b] = [server(clock), server(clock)]
    await a().set('/en/products/SKU-001', page('<p>old</p>'), {})
    clock.now += 10
    await b().revalidateTag('verified-reviews:product:SKU-001')
    expect((await a().get('/en/products/SKU-001', PAGE))?.lastModified).toBe(-1)
    clock.now += 10
    await b().set('/en/products/SKU-001', page('<p>fresh</p>'), {})
    const found = await a().get('/en/products/SKU-001', PAGE)
    expect(found?.value?.html).toBe('<p>fresh</p>')
    expect(found?.lastModified).toBe(clock.now)
  })

  it('serves a stored page whose tag another instance revalidated with a profile stale, not expired, so that Next.js renders it again after the answer', async () => {
    const clock = { now: Date.now() }
    const [a, b] = [server(clock), server(clock)]
    await a().set('/en/products/SKU-001', page('<p>good</p>'), {
      cacheControl: { revalidate: 3600, expire: 31_536_000 },
    })
    clock.now += 10
    await b().revalidateTag(['verified-reviews:product:SKU-001'], { expire: 31_536_000 })
    const found = await a().get('/en/products/SKU-001', PAGE)
    expect(found?.value?.html).toBe('<p>good</p>')
    // Older than its revalidate (stale: served while rendered again), younger than its expire.
    expect(found?.lastModified).toBeLessThan(clock.now - 3600 * 1000)
    expect(found?.lastModified).toBeGreaterThan(clock.now - 31_536_000 * 1000)
  })

  it('stores no page of an unknown id (a 404)', async () => {
    const a = server()
    await a().set(
      '/en/products/NOPE',
      { ...page('<p>not found</p>'), status: 404 },
      {
        cacheControl: { revalidate: 3600, expire: 86_400 },
      },
    )
    expect(await a().get('/en/products/NOPE', PAGE)).toBeNull()
    expect(await redis.command('EXISTS', 'vr:next:cache:/en/products/NOPE')).toBe(':0\r\n')
  })

  it('keeps a fetch answer in Redis for twice its revalidate, not for the ttl', async () => {
    const answer = {
      kind: 'FETCH',
      data: { headers: {}, body: 'e30=', status: 200, url: '' },
      revalidate: 600,
    }
    await server()().set('fetch-ttl', answer, { kind: 'FETCH', tags: [], fetchCache: true })
    const pttl = Number((await redis.command('PTTL', 'vr:next:cache:fetch-ttl')).slice(1))
    expect(pttl).toBeGreaterThan(1_190_000)
    expect(pttl).toBeLessThanOrEqual(1_200_000)
  })

  it("keeps the pages of each build under its build id, so that a new build never serves the last one's", async () => {
    const folder = await mkdtemp(join(tmpdir(), 'vr-build-id-'))
    try {
      const handler = (build: string) => {
        const dist = join(folder, build)
        return { dist, Handler: createRedisNextCacheHandler(connect()) }
      }
      const first = handler('first')
      const second = handler('second')
      for (const [{ dist }, id] of [
        [first, 'build-one'],
        [second, 'build-two'],
      ] as const) {
        await mkdir(join(dist, 'server'), { recursive: true })
        await writeFile(join(dist, 'BUILD_ID'), id)
      }
      const context = (dist: string) => ({ serverDistDir: join(dist, 'server') })
      await new first.Handler(context(first.dist)).set('/en/products/SKU-011', page('<p>first build</p>'), {})
      expect(await redis.command('EXISTS', 'vr:next:cache:build-one:/en/products/SKU-011')).toBe(':1\r\n')
      expect(await new second.Handler(context(second.dist)).get('/en/products/SKU-011', PAGE)).toBeNull()
      const again = await new first.Handler(context(first.dist)).get('/en/products/SKU-011', PAGE)
      expect(again?.value?.html).toBe('<p>first build</p>')
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })

  it('keeps a tag mark Redis refused (out of memory), reads it on this instance, and writes it once Redis takes it', async () => {
    const clock = { now: Date.now() }
    const [a, b] = [server(clock), server(clock)]
    await a().set('/en/products/SKU-001', page('<p>old</p>'), {})
    clock.now += 10
    await redis.command('CONFIG', 'SET', 'maxmemory-policy', 'noeviction')
    await redis.command('CONFIG', 'SET', 'maxmemory', '1')
    try {
      await a().revalidateTag('verified-reviews:product:SKU-001')
      // This instance knows of its revalidation although Redis refused to write it.
      expect((await a().get('/en/products/SKU-001', PAGE))?.lastModified).toBe(-1)
      expect((await b().get('/en/products/SKU-001', PAGE))?.lastModified).not.toBe(-1)
    } finally {
      await redis.command('CONFIG', 'SET', 'maxmemory', '0')
    }
    let seen: number | undefined
    for (let attempt = 0; attempt < 40 && seen !== -1; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      seen = (await b().get('/en/products/SKU-001', PAGE))?.lastModified
    }
    expect(seen).toBe(-1)
  })

  it('sends a fetch again once its tag or a soft tag was revalidated on another instance', async () => {
    const clock = { now: Date.now() }
    const [a, b] = [server(clock), server(clock)]
    const answer = {
      kind: 'FETCH',
      data: { headers: {}, body: 'e30=', status: 200, url: '' },
      revalidate: 3600,
    }
    const tagged = { kind: 'FETCH', tags: ['verified-reviews:product:SKU-003'], fetchCache: true }
    await a().set('fetch-1', { ...answer, tags: ['verified-reviews:product:SKU-003'] }, tagged)
    await a().set('fetch-2', answer, { kind: 'FETCH', tags: [], fetchCache: true })
    const soft = { kind: 'FETCH', tags: [], softTags: ['_N_T_/en/brand'] }
    clock.now += 10
    expect(await b().get('fetch-1', tagged)).not.toBeNull()
    expect(await b().get('fetch-2', soft)).not.toBeNull()
    await b().revalidateTag(['verified-reviews:product:SKU-003', '_N_T_/en/brand'])
    expect(await a().get('fetch-1', tagged)).toBeNull()
    expect(await a().get('fetch-2', soft)).toBeNull()
  })

  it('serves the pages of the build while Redis is down, and revalidates the tags of the outage after it', async () => {
    const clock = { now: Date.now() }
    const built = new Map([
      ['/en/products/SKU-001', { lastModified: clock.now - 60_000, value: page('<p>built</p>') }],
    ])
    const Handler = createRedisNextCacheHandler(
      connect({ commandTimeout: 200, connectTimeout: 200, retryInterval: 50 }),
      {
        now: () => clock.now,
        fallback: () => ({ get: async (key) => built.get(key) ?? null }),
      },
    )
    const b = server(clock, built)
    redis.pause()
    try {
      expect((await new Handler({}).get('/en/products/SKU-001', PAGE))?.value?.html).toBe('<p>built</p>')
      await new Handler({}).revalidateTag('verified-reviews:product:SKU-001')
      await new Handler({}).set('/en', page('<p>not shared</p>'), {})
    } finally {
      redis.resume()
    }
    for (let attempt = 0; attempt < 50; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 60))
      await new Handler({}).get('/nothing', PAGE)
      if ((await b().get('/en/products/SKU-001', PAGE))?.lastModified === -1) break
    }
    expect((await b().get('/en/products/SKU-001', PAGE))?.lastModified).toBe(-1)
  })
})
