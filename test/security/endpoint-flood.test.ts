// The public "more reviews" endpoint under a flood, while server pages render: against a sandbox that
// allows 10 requests a second per client, 200 endpoint requests (140 with forged, tampered, unsigned or
// foreign cursors, 60 valid ones) are fired in waves while ProductReviews pages render through the React
// data component. No page render may fail, every forged cursor is refused with a 400 before any API
// call, and the API calls the flood causes stay within the endpoint's budget:
//
//   flood calls ≤ windows × (⌈10 × (1 − reservedRateShare)⌉ + maxConcurrency) = windows × (5 + 4),
//   windows = ⌈flood duration in s⌉ + 1,
//
// and never more than the valid requests. Before the fix every request of the flood reached the API
// (429s retried), so the flood made more than 200 calls and renders failed.
import { createClient, type VerifiedReviewsClient } from '@verified-reviews/core'
import {
  continuationCursor,
  createReviewsHandler,
  type ReviewsEndpointBody,
} from '@verified-reviews/core/endpoint'
import { ProductReviews } from '@verified-reviews/react'
import { renderToString } from 'react-dom/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type TestSandbox } from '../fixtures/sandbox.ts'

const RATE_LIMIT = 10
const MAX_CONCURRENCY = 4
const RESERVED_RATE_SHARE = 0.5
const FLOOD_MARK = 'x-test-flood'
const ORIGIN = 'https://shop.example'

let sb: TestSandbox

beforeAll(async () => {
  sb = await startSandbox({ seed: 1, rateLimit: RATE_LIMIT })
})
afterAll(async () => {
  await sb.close()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A client of the sandbox whose API calls marked as the flood's are counted. */
function countingClient(counter: { flood: number; pages: number }): VerifiedReviewsClient {
  return createClient({
    origin: sb.sandbox.origin,
    clientId: sb.sandbox.clientId,
    clientSecret: sb.sandbox.clientSecret,
    fetch: (input, init) => {
      if (!input.includes('/token')) {
        const marked = new Headers(init.headers).has(FLOOD_MARK)
        if (marked) counter.flood++
        else counter.pages++
      }
      return fetch(input, init)
    },
  })
}

function flip(text: string, index: number): string {
  const char = text.charAt(index)
  return text.slice(0, index) + (char === 'A' ? 'B' : 'A') + text.slice(index + 1)
}

interface Setup {
  name: string
  /** Whether the pages and the endpoint share one client (Next.js: `reviewsClient()`) or each has its own. */
  shared: boolean
}

describe.each<Setup>([
  { name: 'one client for pages and endpoint (as the Next.js package does)', shared: true },
  { name: 'a client for the pages and another for the endpoint, same credentials', shared: false },
])('the reviews endpoint under a flood, with $name', ({ shared }) => {
  it('keeps every page render working and bounds the API calls of the flood', async () => {
    await sb.sandbox.reset()
    const counter = { flood: 0, pages: 0 }
    const pagesClient = countingClient(counter)
    const endpointClient = shared ? pagesClient : countingClient(counter)
    const handle = createReviewsHandler({
      client: endpointClient,
      maxConcurrency: MAX_CONCURRENCY,
      reservedRateShare: RESERVED_RATE_SHARE,
      requestOptions: () => ({ headers: { [FLOOD_MARK]: '1' } }),
      onError: () => {},
    })
    const ask = (query: string) => handle(new Request(`${ORIGIN}/api/reviews?${query}`))

    // Material of the attacker and of the readers, gathered before the flood (its calls are not counted).
    const products = (await pagesClient.products.list({ limit: 200 })).data
      .filter((product) => product.ratings.count_total >= 12)
      .map((product) => product.product_variation_id)
    expect(products.length).toBeGreaterThanOrEqual(20)
    const signedNext: string[] = []
    for (const id of products.slice(0, 3)) {
      const body = (await (await ask(`product_variation_id=${id}&limit=5`)).json()) as ReviewsEndpointBody
      signedNext.push(`product_variation_id=${id}&limit=5&cursor=${body.nextCursor}`)
    }
    const apiPage = await pagesClient.products.reviews.list({
      product_variation_id: [products[0] ?? ''],
      sort: ['publish_date'],
      desc: ['publish_date'],
      limit: 5,
    })
    const unsignedApiCursor = apiPage.nextCursor ?? ''
    // The shape of a signed cursor, with a signature made by another key.
    const foreignKey = `s1.${'Qk'.repeat(21)}x.${unsignedApiCursor}`
    // 149 reviews to skip after a page of 50: a 199-review API page, were it taken.
    const hugeContinuation = continuationCursor(
      Array.from({ length: 149 }, (_, index) => ({
        review_id: index.toString(36),
        publish_date: '2030-01-01T00:00:00Z',
      })),
    )
    const firstSigned = signedNext[0] ?? ''
    const signedCursor = new URLSearchParams(firstSigned).get('cursor') ?? ''
    const pageLink = renderToString(
      await ProductReviews({ productId: products[0] ?? '', client: pagesClient, limit: 5, jsonLd: false }),
    )
    const pageCursor = decodeURIComponent(/vr_cursor=([^"&]+)/.exec(pageLink)?.[1] ?? '')
    await sleep(1100)
    counter.flood = 0
    counter.pages = 0

    // 140 forged, tampered, unsigned or foreign cursors, then 60 valid requests, shuffled into waves.
    const forged: string[] = []
    for (let i = 0; i < 140; i++) {
      const id = products[i % products.length] ?? ''
      const kinds = [
        `product_variation_id=${id}&limit=5&cursor=Zm9yZ2VkLWN1cnNvci0${i}`,
        `product_variation_id=${id}&limit=5&cursor=${unsignedApiCursor}`,
        `product_variation_id=${id}&limit=50&cursor=${hugeContinuation}`,
        `product_variation_id=${id}&limit=5&cursor=${foreignKey}`,
        `product_variation_id=${products[1]}&limit=5&cursor=${signedCursor}`,
        `product_variation_id=${products[0]}&limit=5&sort=oldest&cursor=${signedCursor}`,
        `product_variation_id=${products[0]}&limit=6&cursor=${signedCursor}`,
        `product_variation_id=${products[0]}&limit=5&rate=5&cursor=${signedCursor}`,
        `product_variation_id=${products[0]}&limit=5&cursor=${flip(signedCursor, 8)}`,
        `product_variation_id=${products[0]}&limit=5&cursor=${signedCursor}x${i}`,
      ]
      forged.push(kinds[i % kinds.length] ?? '')
    }
    const valid: string[] = []
    for (let i = 0; i < 60; i++) {
      valid.push(
        i % 3 === 0
          ? (signedNext[i % signedNext.length] ?? '')
          : `product_variation_id=${products[i % products.length]}&limit=5&sort=${i % 2 ? 'oldest' : 'newest'}`,
      )
    }
    // Each wave of 20 mixes 14 forged and 6 valid requests.
    const flood = Array.from({ length: forged.length + valid.length }, (_, index) => {
      const forgedOne = index % 10 < 7
      const at = Math.floor(index / 10) * (forgedOne ? 7 : 3) + (index % 10) - (forgedOne ? 0 : 7)
      return { query: (forgedOne ? forged[at] : valid[at]) ?? '', forged: forgedOne }
    })

    // Pages render during the flood: three readers, each rendering product pages one after another,
    // some of them the second page through the signed vr_cursor of a link.
    const renders: { ok: boolean; ms: number }[] = []
    let flooding = true
    const reader = async (offset: number) => {
      let index = offset
      while (flooding || renders.length < 12) {
        const productId = products[index % products.length] ?? ''
        const searchParams = index % 4 === 0 ? { vr_cursor: pageCursor } : {}
        const id = index % 4 === 0 ? (products[0] ?? '') : productId
        const started = Date.now()
        let failed = false
        const element = await ProductReviews({
          productId: id,
          client: pagesClient,
          limit: 5,
          jsonLd: false,
          searchParams,
          onError: () => {
            failed = true
          },
        })
        const html = element === null ? '' : renderToString(element)
        const items = html.match(/<li><article class="vr-review"/g)?.length ?? 0
        renders.push({ ok: !failed && element !== null && items === 5, ms: Date.now() - started })
        index += 3
      }
    }

    const statuses: { forged: boolean; status: number; ms: number }[] = []
    const started = Date.now()
    const readers = [reader(0), reader(1), reader(2)]
    for (let wave = 0; wave < 10; wave++) {
      const batch = flood.slice(wave * 20, wave * 20 + 20)
      await Promise.all(
        batch.map(async ({ query, forged }) => {
          const at = Date.now()
          const response = await ask(query)
          await response.arrayBuffer()
          statuses.push({ forged, status: response.status, ms: Date.now() - at })
        }),
      )
      await sleep(200)
    }
    const floodMs = Date.now() - started
    flooding = false
    await Promise.all(readers)

    const windows = Math.ceil(floodMs / 1000) + 1
    const perWindow = Math.ceil(RATE_LIMIT * (1 - RESERVED_RATE_SHARE)) + MAX_CONCURRENCY
    const bound = Math.min(windows * perWindow, valid.length)
    const failedRenders = renders.filter((render) => !render.ok).length
    const count = (forged: boolean, status: number) =>
      statuses.filter((item) => item.forged === forged && item.status === status).length
    const slowestRefusal = Math.max(...statuses.filter((item) => item.status !== 200).map((item) => item.ms))
    const stats = await sb.stats()
    console.log(
      [
        `endpoint flood (${shared ? 'shared client' : 'separate clients'}): ${flood.length} requests in ${floodMs} ms, sandbox ${RATE_LIMIT} req/s`,
        `  forged: ${count(true, 400)} × 400, ${forged.length - count(true, 400)} other`,
        `  valid: ${count(false, 200)} × 200, ${count(false, 503)} × 503, ${valid.length - count(false, 200) - count(false, 503)} other`,
        `  slowest 400/503 answer: ${slowestRefusal} ms`,
        `  API calls of the flood: ${counter.flood} (bound ${bound} = min(${windows} windows × ${perWindow}, ${valid.length} valid requests))`,
        `  page renders: ${renders.length}, failed: ${failedRenders}, slowest ${Math.max(...renders.map((r) => r.ms))} ms, their API calls: ${counter.pages}`,
        `  sandbox: ${stats.total} API requests in all`,
      ].join('\n'),
    )

    expect(pageCursor).toMatch(/^s1\./)
    expect(failedRenders).toBe(0)
    expect(renders.length).toBeGreaterThanOrEqual(12)
    expect(count(true, 400)).toBe(forged.length)
    expect(count(false, 200) + count(false, 503)).toBe(valid.length)
    expect(counter.flood).toBeLessThanOrEqual(bound)
  }, 120_000)
})
