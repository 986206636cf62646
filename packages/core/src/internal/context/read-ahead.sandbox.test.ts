import { describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import type { RequestOptions } from '../../types/request-options.ts'
import { READ_AHEAD } from './read-ahead.ts'

const sb = sandboxForFile({ seed: 1 })

// What a full sync sends: every page of the walk is read, so each next page is asked for early.
const AHEAD = { cache: false, [READ_AHEAD]: true } as RequestOptions
const PARAMS = { limit: 200, sort: ['publish_date'] as const }

/**
 * A fetch that counts the calls for review pages (from `reset()`) and can hold the body of the next one.
 * A client's first answer tells it the API's rate limits, which its other requests wait for: each test
 * makes one call before it counts.
 */
function countingFetch() {
  const sent: string[] = []
  let hold: Promise<void> | undefined
  const fetchFn = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input))
    if (!url.pathname.endsWith('/products/reviews')) return fetch(input, init)
    sent.push(url.searchParams.get('cursor') ?? 'first')
    const held = hold
    hold = undefined
    const response = await fetch(input, init)
    if (held === undefined) return response
    // The page's headers now, its body only once `held` resolves.
    const bytes = new Uint8Array(await response.arrayBuffer())
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        await held
        controller.enqueue(bytes)
        controller.close()
      },
    })
    return new Response(body, { status: response.status, headers: response.headers })
  }
  return {
    sent,
    fetch: fetchFn,
    /** Holds the body of the next page asked for until `until` resolves. */
    holdNext(until: Promise<void>) {
      hold = until
    },
    reset() {
      sent.length = 0
    },
  }
}

/** A client of the sandbox whose first answer (one review) is in. */
async function warmClient(counting: ReturnType<typeof countingFetch>, options: { maxRetries?: number } = {}) {
  const vr = sb.client({ ...options, fetch: counting.fetch })
  await vr.products.reviews.list({ limit: 1 }, { cache: false })
  counting.reset()
  return vr
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('a list asked for with READ_AHEAD', () => {
  it('asks for the next page from the headers, before the page in hand is read', async () => {
    const counting = countingFetch()
    const vr = await warmClient(counting)
    const secondAsked = vi.waitFor(() => expect(counting.sent).toHaveLength(2), { timeout: 5000 })
    // The first page's body arrives only once the second page was asked for: without reading ahead,
    // the list would never resolve (and the wait above times out).
    counting.holdNext(secondAsked.then(() => undefined))
    const first = await vr.products.reviews.list(PARAMS, AHEAD)
    expect(first.data).toHaveLength(200)
    expect(counting.sent).toEqual(['first', first.nextCursor])
  })

  it('keeps one page ahead of the walk: the page after next waits until the walk asks for the next', async () => {
    const counting = countingFetch()
    const vr = await warmClient(counting)
    const first = await vr.products.reviews.list(PARAMS, AHEAD)
    await pause(200)
    // The second page has arrived meanwhile; nobody asked for it, so nothing is asked after it.
    expect(counting.sent).toEqual(['first', first.nextCursor])
    const second = await first.getNextPage()
    await vi.waitFor(() => expect(counting.sent).toHaveLength(3), { timeout: 5000 })
    await pause(200)
    expect(counting.sent).toEqual(['first', first.nextCursor, second.nextCursor])
    // The page asked for ahead is the page the walk gets: the same reviews as without reading ahead.
    const plain = await sb.client().products.reviews.list(PARAMS, { cache: false })
    const plainSecond = await plain.getNextPage()
    expect(second.data).toEqual(plainSecond.data)
    expect(second.nextCursor).toBe(plainSecond.nextCursor)
  })

  it('walks the whole list in one call per page, none past the last', async () => {
    const vr = sb.client()
    let page = await vr.products.reviews.list(PARAMS, AHEAD)
    let reviews = page.data.length
    while (page.hasNextPage()) {
      page = await page.getNextPage()
      reviews += page.data.length
    }
    expect(reviews).toBe(3000)
    await pause(100)
    expect((await sb.stats()).operations['products.reviews.list']).toBe(15)
  })

  it('asks for nothing ahead without READ_AHEAD', async () => {
    const counting = countingFetch()
    const vr = await warmClient(counting)
    const first = await vr.products.reviews.list(PARAMS, { cache: false })
    await pause(200)
    expect(counting.sent).toEqual(['first'])
    await first.getNextPage()
    expect(counting.sent).toEqual(['first', first.nextCursor])
  })

  it('hands a failure of the page asked for ahead to the walk when it asks, and to nobody before', async () => {
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    try {
      let armed = false
      let pages = 0
      const vr = sb.client({
        maxRetries: 0,
        fetch: async (input, init) => {
          // The second page's call fails: the fault is armed once the first page's answer is in.
          const response = await fetch(input, init)
          if (armed && new URL(String(input)).pathname.endsWith('/products/reviews')) {
            pages++
            await sb.faults([{ operation: 'products.reviews.list', status: 500, rate: 1 }])
          }
          return response
        },
      })
      await vr.products.reviews.list({ limit: 1 }, { cache: false })
      armed = true
      const first = await vr.products.reviews.list(PARAMS, AHEAD)
      await pause(300)
      // The second page was asked for ahead, and failed, while nobody waited for it.
      expect(pages).toBe(2)
      expect(unhandled).toEqual([])
      await expect(first.getNextPage()).rejects.toMatchObject({ status: 500 })
    } finally {
      process.off('unhandledRejection', onUnhandled)
      await sb.admin('DELETE', 'faults')
    }
  })
})
