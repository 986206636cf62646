// The Next demo's multi-instance mode (apps/next-demo/README.md, "Several instances"): one `next build`, two
// `next start` sharing one redis-server through REDIS_URL, for Next.js's caches and for the review clients'
// token, rate budget and the revalidate route's review store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedis, type TestRedis } from '../fixtures/redis.ts'
import { type BuiltNextApp, buildNextApp, DEMO, type NextServer, serveNextApp } from './next-demo-app.ts'
import { apiCallsBetween, sandboxOperations } from './support.ts'

const DIST_DIR = '.next-e2e-redis'
const NEW_REVIEW = 'Bought after the build, read on the other server.'

let redis: TestRedis
let app: BuiltNextApp
let a: NextServer
let b: NextServer

beforeAll(async () => {
  redis = await startRedis()
  // Built as the README says for several instances: with REDIS_URL, so that the build writes the replica
  // every instance reads into Redis.
  app = await buildNextApp(DEMO, DIST_DIR, { REDIS_URL: redis.url })
  ;[a, b] = await Promise.all([
    serveNextApp(app, { REDIS_URL: redis.url }),
    serveNextApp(app, { REDIS_URL: redis.url }),
  ])
}, 600_000)

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()])
  await app?.close()
  await redis?.close()
}, 60_000)

async function page(server: NextServer, path: string): Promise<{ text: string; cache: string | null }> {
  const response = await fetch(`${server.origin}${path}`)
  expect(response.status, server.output()).toBe(200)
  return { text: await response.text(), cache: response.headers.get('x-nextjs-cache') }
}

const sandboxCalls = () => sandboxOperations(app.sandbox.origin)

/** Adds a review of `productId` to the sandbox. */
async function addReview(productId: string, content: string, rate = 5): Promise<void> {
  const added = await fetch(`${app.sandbox.origin}/__sandbox/product-reviews`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([{ product_variation_id: productId, review_rate: rate, review_content: content }]),
  })
  expect(added.status).toBe(201)
}

/** The names of the keys Redis holds (a test's Redis holds a few thousand at most). */
async function keyNames(): Promise<Set<string>> {
  const answer = await redis.command('KEYS', '*')
  return new Set(answer.split('\r\n').filter((line, i) => i > 0 && line !== '' && !line.startsWith('$')))
}

/** Calls the revalidate route of instance A, which must answer 200; its answer. */
async function revalidateThroughA(): Promise<Response> {
  const response = await fetch(`${a.origin}/api/revalidate-reviews`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.revalidateSecret}` },
  })
  expect(response.status, a.output()).toBe(200)
  return response
}

describe('two next start instances sharing one Redis', () => {
  it('serve a product revalidated through one instance fresh from the other, and leave the other products as they were', async () => {
    await fetch(`${app.sandbox.origin}/__sandbox/stats`, { method: 'DELETE' })
    const tokensOfTheBuild = app.proxy.tokens.size

    // Both instances serve the pages of the build.
    const before = new Map<string, string>()
    for (const server of [a, b]) {
      for (const id of ['SKU-001', 'SKU-002']) {
        const { text } = await page(server, `/en/products/${id}`)
        expect(text.includes(NEW_REVIEW)).toBe(false)
        before.set(`${server.origin}${id}`, text)
      }
    }

    await addReview('SKU-001', NEW_REVIEW)
    const response = await revalidateThroughA()
    const body = (await response.json()) as {
      products: string[]
      sync: { products: { mode: string; calls: number }; brands?: { mode: string; calls: number } }
    }
    // The review store in Redis starts from the build's: the first revalidation is incremental, for the
    // brand reviews too, which the demo's build syncs (`brandReviews: true`) and wrote into Redis.
    expect(body.products).toEqual(['SKU-001'])
    expect(body.sync.products).toMatchObject({ mode: 'incremental', calls: 1 })
    expect(body.sync.brands).toMatchObject({ mode: 'incremental', calls: 1 })

    // Instance B never saw the revalidation: it learns it from Redis and renders the page again.
    let fresh = ''
    let requests = 0
    while (requests < 40 && !fresh.includes(NEW_REVIEW)) {
      if (requests > 0) await new Promise((resolve) => setTimeout(resolve, 250))
      fresh = (await page(b, '/en/products/SKU-001')).text
      requests++
    }
    console.log(
      `next multi-instance: instance B served the new review at its request ${requests} after the revalidation through A`,
    )
    expect(fresh.includes(NEW_REVIEW)).toBe(true)
    expect(fresh.includes('12 reviews')).toBe(true)

    // Instance A reads the page B rendered from Redis, without rendering it.
    const onA = await page(a, '/en/products/SKU-001')
    expect(onA.text.includes(NEW_REVIEW)).toBe(true)
    expect(onA.cache).toBe('HIT')

    // The other product was not rendered again, on either instance.
    for (const server of [a, b]) {
      const other = await page(server, '/en/products/SKU-002')
      expect(other.cache).toBe('HIT')
      expect(other.text).toBe(before.get(`${server.origin}SKU-002`))
    }

    // One token between the two instances (A's sync fetched it, B's render read it from Redis).
    const calls = await sandboxCalls()
    console.log(`next multi-instance: sandbox calls after the build ${JSON.stringify(calls)}`)
    // A token, the product reviews since the build, the changed product's summary, the brand reviews since
    // the build: no walk of the brand reviews, and no statistics call (the build's are fresh).
    expect(calls).toEqual({
      'token.published': 1,
      'products.reviews.list': 1,
      'products.list': 1,
      'brands.reviews.list': 1,
    })
    expect(app.proxy.tokens.size - tokensOfTheBuild).toBe(1)
  })

  it('answer a flood of junk view parameters and forged cursors with no API call and no new Redis entry', async () => {
    const path = '/en/products/SKU-002'
    const dbsize = async () => Number((await redis.command('DBSIZE')).slice(1))
    // The view the flood aims at, once: its reviews are then a cached entry.
    const first = await page(a, `${path}?vr_sort=oldest`)
    expect(first.text.split('class="vr-review"').length - 1).toBeGreaterThan(0)
    const entries = await dbsize()
    const calls = await sandboxCalls()

    const junk = 'x'.repeat(6000)
    const responses: string[] = []
    for (let request = 0; request < 60; request++) {
      const server = request % 2 === 0 ? a : b
      const query =
        request < 30
          ? `vr_sort=oldest&junk${request}=${junk}`
          : `vr_sort=oldest&vr_cursor=s1.${String(request).padStart(43, 'A')}.forged${request}`
      responses.push((await page(server, `${path}?${query}`)).text)
    }
    const newEntries = (await dbsize()) - entries
    const after = await sandboxCalls()
    const apiCalls = apiCallsBetween(calls, after)
    console.log(
      `next multi-instance: 60 requests of junk views and forged cursors: ${apiCalls} API calls, ${newEntries} new Redis keys, ` +
        `largest page ${Math.max(...responses.map((text) => text.length))} bytes (the view itself ${first.text.length})`,
    )
    expect(apiCalls).toBe(0)
    // None made (one may expire meanwhile: a lock, a token).
    expect(newEntries).toBeLessThanOrEqual(0)
    // No link of the page carries the junk (Next.js's own payload names the URL asked for).
    for (const text of responses) expect(/href="[^"]*xxxxxxxxxx/.test(text)).toBe(false)
  })

  it('answer a flood of distinct valid views from the replica, with no API call and no new Redis entry', async () => {
    const dbsize = async () => Number((await redis.command('DBSIZE')).slice(1))
    const info = async () => Number(/used_memory:(\d+)/.exec(await redis.command('INFO', 'memory'))?.[1])
    // Warm: every instance has read the replica once.
    await page(a, '/en/products/SKU-004?vr_sort=lowest')
    await page(b, '/en/products/SKU-004?vr_sort=lowest')
    const sorts = ['newest', 'oldest', 'highest', 'lowest']
    const rates = ['5', '4', '1,2', '3,4,5', '2', '1', '']
    const count = Number(process.env.VR_FLOOD_VIEWS ?? 120)
    let withoutReviews = 0
    const next = (() => {
      let n = 0
      return () => {
        if (n >= count) return undefined
        const i = n++
        const product = `SKU-${String(1 + (i % 60)).padStart(3, '0')}`
        const locale = ['en', 'fr', 'de'][Math.floor(i / 60) % 3]
        const sort = sorts[Math.floor(i / 180) % sorts.length]
        const rate = rates[Math.floor(i / 720) % rates.length]
        return {
          server: i % 2 === 0 ? a : b,
          path: `/${locale}/products/${product}?vr_sort=${sort}&vr_rate=${rate}&p=${Math.floor(i / 5040)}`,
        }
      }
    })()
    const views: { server: NextServer; path: string }[] = []
    for (let view = next(); view !== undefined; view = next()) views.push(view)
    // The first page of each product and language is one cached entry, made once whatever the view
    // parameters: made before the count, so that what is counted is what the other views add.
    const firstPages = views.filter(({ path }) => /vr_sort=newest&vr_rate=&/.test(path))
    for (const { server, path } of firstPages) await page(server, path)
    const [entries, memory, calls] = [await dbsize(), await info(), await sandboxCalls()]
    const keysBefore = await keyNames()
    let at = 0
    const worker = async () => {
      for (let view = views[at++]; view !== undefined; view = views[at++]) {
        const { text } = await page(view.server, view.path)
        if (!text.includes('class="vr-rating-summary')) withoutReviews++
      }
    }
    await Promise.all(Array.from({ length: 6 }, worker))
    const newEntries = (await dbsize()) - entries
    const grown = (await info()) - memory
    const apiCalls = apiCallsBetween(calls, await sandboxCalls())
    const made = [...(await keyNames())].filter((key) => !keysBefore.has(key))
    console.log(
      `next multi-instance: ${count} distinct valid views on two instances (${firstPages.length} first pages made before): ${apiCalls} API calls, ` +
        `${withoutReviews} without reviews, ${newEntries} new Redis keys, Redis memory ${grown >= 0 ? '+' : ''}${grown} bytes` +
        (made.length === 0
          ? ''
          : `; keys made: ${made.slice(0, 8).join(', ')}${made.length > 8 ? ', …' : ''}`),
    )
    expect(withoutReviews).toBe(0)
    expect(apiCalls).toBe(0)
    // None made (one may expire meanwhile: a lock, a token).
    expect(newEntries).toBeLessThanOrEqual(0)
  })

  it('stay within a small maxmemory under a flood of unknown ids and junk views, and still revalidate on both', async () => {
    // The revalidate route's review store, seeded from the build at its first call, is in Redis first.
    await revalidateThroughA()
    const info = await redis.command('INFO', 'memory')
    const used = Number(/used_memory:(\d+)/.exec(info)?.[1])
    const limit = used + 4 * 1024 * 1024
    await redis.command('CONFIG', 'SET', 'maxmemory-policy', 'volatile-lru')
    await redis.command('CONFIG', 'SET', 'maxmemory', String(limit))
    try {
      // The view the junk requests aim at, once: its reviews are then one cached entry.
      await page(a, '/en/products/SKU-003?vr_sort=oldest')
      const keysBefore = Number((await redis.command('DBSIZE')).slice(1))
      for (let request = 0; request < 200; request++) {
        const server = request % 2 === 0 ? a : b
        const path =
          request % 4 < 2
            ? `/en/products/UNKNOWN-${request}`
            : `/en/products/SKU-003?vr_sort=oldest&junk=${request}-${'y'.repeat(2000)}`
        const response = await fetch(`${server.origin}${path}`)
        const html = await response.text()
        // An unknown id gets the not-found page (its status may be sent before the page finds out).
        if (path.includes('UNKNOWN')) expect(html.includes('NEXT_HTTP_ERROR_FALLBACK;404')).toBe(true)
        else expect(response.status).toBe(200)
      }
      const keysAfter = Number((await redis.command('DBSIZE')).slice(1))
      const memory = Number(/used_memory:(\d+)/.exec(await redis.command('INFO', 'memory'))?.[1])

      const text = 'Written after a flood, read on both servers.'
      await addReview('SKU-020', text, 4)
      const response = await revalidateThroughA()
      expect(((await response.json()) as { products: string[] }).products).toEqual(['SKU-020'])
      const shown: boolean[] = []
      for (const server of [a, b]) {
        let found = false
        for (let attempt = 0; attempt < 40 && !found; attempt++) {
          if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 250))
          found = (await page(server, '/en/products/SKU-020')).text.includes(text)
        }
        shown.push(found)
      }
      console.log(
        `next multi-instance: 200 requests of unknown ids and junk views under maxmemory ${limit} bytes: ` +
          `${keysAfter - keysBefore} new Redis keys, ${memory} bytes used; the revalidation after it reached ` +
          `${shown.filter(Boolean).length} of 2 instances`,
      )
      expect(keysAfter - keysBefore).toBe(0)
      expect(shown).toEqual([true, true])
    } finally {
      await redis.command('CONFIG', 'SET', 'maxmemory', '0')
    }
  }, 120_000)

  it('keep serving the reviews of a product re-rendered in an outage, from the replica the revalidation synced, new review included', async () => {
    const path = '/en/products/SKU-011'
    const text = 'Written just before the outage, read on both servers.'
    const look = async (server: NextServer) => {
      const html = (await page(server, path)).text
      return {
        reviews: html.split('class="vr-review"').length - 1,
        jsonLd: html.split('<script type="application/ld+json"').length - 1,
        shows: html.includes(text),
      }
    }
    const before = await look(a)
    expect(before.reviews).toBeGreaterThan(0)
    expect(before.jsonLd).toBe(1)
    expect(await look(b)).toEqual(before)

    await addReview('SKU-011', text)
    const response = await revalidateThroughA()
    expect(((await response.json()) as { products: string[] }).products).toEqual(['SKU-011'])
    // A view of the shop page: read from the replica's brand reviews, which the revalidation synced.
    const shopPath = '/fr/brand?shop=shop-paris&vr_sort=lowest'
    const shopReviews = async (server: NextServer) =>
      (await page(server, shopPath)).text.split('class="vr-review"').length - 1
    const shopBefore = await shopReviews(a)
    expect(shopBefore).toBeGreaterThan(0)
    expect(await shopReviews(b)).toBe(shopBefore)

    // Every call of the Published API answers 503 while both instances render the product again.
    await fetch(`${app.sandbox.origin}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ operation: '*', status: 503 }]),
    })
    const outageStart = await sandboxCalls()
    const during = []
    const shopDuring: number[] = []
    for (let round = 0; round < 6; round++) {
      during.push(await look(a), await look(b))
      shopDuring.push(await shopReviews(a), await shopReviews(b))
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
    const outageEnd = await sandboxCalls()
    await fetch(`${app.sandbox.origin}/__sandbox/faults`, { method: 'DELETE' })
    // Every page keeps its reviews and its JSON-LD; the re-render reads the replica in Redis, which the
    // revalidation synced before the outage, so the new review shows on both with no API call.
    expect(during.map(({ reviews, jsonLd }) => ({ reviews, jsonLd }))).toEqual(
      during.map(() => ({ reviews: before.reviews, jsonLd: 1 })),
    )
    expect(during.slice(-2).map((state) => state.shows)).toEqual([true, true])
    expect(shopDuring).toEqual(shopDuring.map(() => shopBefore))
    expect(apiCallsBetween(outageStart, outageEnd)).toBe(0)

    const recoveredAt: number[] = []
    const started = performance.now()
    for (const server of [a, b]) {
      while (performance.now() - started < 60_000 && !(await look(server)).shows) {
        await new Promise((resolve) => setTimeout(resolve, 2000))
      }
      recoveredAt.push((performance.now() - started) / 1000)
    }
    const after = await Promise.all([look(a), look(b)])
    expect(after.map((state) => state.shows)).toEqual([true, true])
    expect(after.map((state) => state.jsonLd)).toEqual([1, 1])
    const refused = apiCallsBetween(outageStart, outageEnd)
    console.log(
      `next multi-instance: ${path} during an outage: ${during.length} requests on two instances, each with ` +
        `${before.reviews} reviews and ${before.jsonLd} JSON-LD script; ${refused} API calls refused; the new ` +
        `review on A after ${recoveredAt[0]?.toFixed(1)} s, on B after ${recoveredAt[1]?.toFixed(1)} s of the API being back`,
    )
  }, 120_000)
})
