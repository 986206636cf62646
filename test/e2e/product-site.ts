// The end-to-end tests of a small Next.js site with one product page (a fixture folder): built from the
// shared prefetch, its HTML, then a revalidation of one product. Run on the Cache Components fixture and
// on the ISR one, which must behave alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type NextApp, startNextApp } from './next-demo-app.ts'
import { apiCallsBetween, sandboxOperations } from './support.ts'

/** Builds and serves the site in `fixture`, and describes under `title` what its product pages must do. */
export function describeProductSite(title: string, fixture: string): void {
  let app: NextApp

  beforeAll(async () => {
    app = await startNextApp(fixture)
  }, 600_000)

  afterAll(async () => {
    await app?.close()
  }, 60_000)

  async function page(path: string): Promise<{ text: string; cache: string | null }> {
    const response = await fetch(`${app.origin}${path}`)
    expect(response.status).toBe(200)
    return { text: await response.text(), cache: response.headers.get('x-nextjs-cache') }
  }

  function count(text: string, fragment: string): number {
    return text.split(fragment).length - 1
  }

  const sandboxCalls = () => sandboxOperations(app.sandbox.origin)

  /** Every call of the Published API answers 503 until `outage(false)`. */
  async function outage(on: boolean): Promise<void> {
    const init: RequestInit = on
      ? {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify([{ operation: '*', status: 503 }]),
        }
      : { method: 'DELETE' }
    const response = await fetch(`${app.sandbox.origin}/__sandbox/faults`, init)
    expect(response.ok).toBe(true)
  }

  async function addReview(productId: string, content: string): Promise<void> {
    const response = await fetch(`${app.sandbox.origin}/__sandbox/product-reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ product_variation_id: productId, review_rate: 5, review_content: content }]),
    })
    expect(response.ok).toBe(true)
  }

  /** Reviews and JSON-LD scripts on a page, and whether `text` is on it. */
  async function look(path: string, text: string) {
    const html = (await page(path)).text
    return {
      reviews: count(html, 'class="vr-review"'),
      jsonLd: count(html, '<script type="application/ld+json"'),
      shows: html.includes(text),
    }
  }

  /** Asks for `path` every 2 s until it shows `text`, for `seconds` at most; the seconds it took. */
  async function waitFor(path: string, text: string, seconds: number): Promise<number | undefined> {
    const started = performance.now()
    while (performance.now() - started < seconds * 1000) {
      if ((await look(path, text)).shows) return (performance.now() - started) / 1000
      await new Promise((resolve) => setTimeout(resolve, 2000))
    }
    return undefined
  }

  describe(title, () => {
    it('builds its product pages from one prefetch', () => {
      const { 'token.published': _tokens, ...api } = app.buildCalls
      expect(api).toEqual({ 'products.list': 1, 'products.reviews.list': 15 })
    })

    it('has the stars, the reviews and one Product node in the HTML of a cached page', async () => {
      const { text } = await page('/products/SKU-058')
      expect(count(text, 'class="vr-review"')).toBe(10)
      expect(count(text, 'aria-label="4.1 out of 5"')).toBeGreaterThan(0)
      expect(count(text, '<script type="application/ld+json"')).toBe(1)
    })

    it('answers a flood of distinct valid views and of junk or forged ones from the replica, with no API call', async () => {
      const sorts = ['newest', 'oldest', 'highest', 'lowest']
      const rates = ['5', '4', '1,2', '3,4,5', '']
      const valid = Number(process.env.VR_FLOOD_VIEWS ?? 40)
      const junk = Number(process.env.VR_FLOOD_JUNK ?? 20)
      const products = (i: number) => `SKU-${String(1 + (i % 60)).padStart(3, '0')}`
      const paths = [
        ...Array.from(
          { length: valid },
          (_, i) =>
            `/products/${products(i)}?vr_sort=${sorts[Math.floor(i / 60) % 4]}&vr_rate=${rates[Math.floor(i / 240) % 5]}&p=${Math.floor(i / 1200)}`,
        ),
        ...Array.from({ length: junk }, (_, i) =>
          i % 2 === 0
            ? `/products/${products(i)}?vr_cursor=${encodeURIComponent(`forged-${i}.${'A'.repeat(40)}`)}`
            : `/products/${products(i)}?vr_sort=${encodeURIComponent('<script>')}&vr_rate=9,0,x&vr_cursor=~vrp1~junk`,
        ),
      ]
      const before = await sandboxCalls()
      let withoutReviews = 0
      let at = 0
      const worker = async () => {
        for (let path = paths[at++]; path !== undefined; path = paths[at++]) {
          if (!(await page(path)).text.includes('class="vr-rating-summary')) withoutReviews++
        }
      }
      await Promise.all(Array.from({ length: 4 }, worker))
      const calls = apiCallsBetween(before, await sandboxCalls())
      console.log(
        `${title}: ${valid} distinct valid views and ${junk} junk or forged ones on a fresh server: ${calls} API calls, ${withoutReviews} without reviews`,
      )
      expect(withoutReviews).toBe(0)
      expect(calls).toBe(0)
    }, 300_000)

    it('shows new reviews of the product the revalidate route revalidated, and leaves the others alone', async () => {
      await fetch(`${app.sandbox.origin}/__sandbox/product-reviews`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([
          { product_variation_id: 'SKU-001', review_rate: 4, review_content: 'Cached, then refreshed.' },
        ]),
      })
      const response = await fetch(`${app.origin}/api/revalidate-reviews`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.revalidateSecret}` },
      })
      expect(((await response.json()) as { products: string[] }).products).toEqual(['SKU-001'])

      let text = ''
      for (let attempt = 0; attempt < 40 && !text.includes('Cached, then refreshed.'); attempt++) {
        text = (await page('/products/SKU-001')).text
        if (!text.includes('Cached, then refreshed.'))
          await new Promise((resolve) => setTimeout(resolve, 250))
      }
      expect(text.includes('Cached, then refreshed.')).toBe(true)
      expect((await page('/products/SKU-002')).cache).toBe('HIT')
    })

    it('keeps serving the reviews of a page re-rendered in an outage, from the replica the revalidation synced', async () => {
      const path = '/products/SKU-030'
      const text = 'Written just before the outage.'
      const before = await look(path, text)
      expect(before).toEqual({ reviews: 10, jsonLd: 1, shows: false })
      await addReview('SKU-030', text)
      const response = await fetch(`${app.origin}/api/revalidate-reviews`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.revalidateSecret}` },
      })
      expect(((await response.json()) as { products: string[] }).products).toEqual(['SKU-030'])

      await outage(true)
      const outageStart = await sandboxCalls()
      const during = []
      for (let request = 0; request < 8; request++) {
        during.push(await look(path, text))
        await new Promise((resolve) => setTimeout(resolve, 1000))
      }
      const outageEnd = await sandboxCalls()
      await outage(false)
      // Never a render without its reviews; the re-render reads the replica, which the revalidation
      // synced before the outage: the new review shows, and the page asks the API nothing.
      expect(during.map(({ reviews, jsonLd }) => ({ reviews, jsonLd }))).toEqual(
        during.map(() => ({ reviews: 10, jsonLd: 1 })),
      )
      expect(during.at(-1)?.shows).toBe(true)
      expect(apiCallsBetween(outageStart, outageEnd)).toBe(0)
      console.log(
        `${title}: ${path} during an outage of every API call: ${during.length} requests, each with ` +
          `${during[0]?.reviews} reviews and ${during[0]?.jsonLd} JSON-LD script, ${apiCallsBetween(outageStart, outageEnd)} ` +
          `API calls; the new review shown from request ${during.findIndex((state) => state.shows) + 1}`,
      )
    }, 120_000)

    it('shows a product the replica does not hold yet without reviews, in an outage too, and its review once the revalidate route synced it', async () => {
      // A product the build did not prerender, whose first review came after the build.
      const path = '/products/SKU-900'
      const text = 'The first review of a new product.'
      await addReview('SKU-900', text)
      await outage(true)
      const during = await look(path, text)
      await outage(false)
      expect(during).toEqual({ reviews: 0, jsonLd: 0, shows: false })

      const afterOutage = await sandboxCalls()
      const response = await fetch(`${app.origin}/api/revalidate-reviews`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.revalidateSecret}` },
      })
      expect(((await response.json()) as { products: string[] }).products).toEqual(['SKU-900'])
      const synced = await sandboxCalls()
      const recovered = await waitFor(path, text, 75)
      expect(recovered).toBeDefined()
      const shown = await look(path, text)
      expect(shown).toEqual({ reviews: 1, jsonLd: 1, shows: true })
      // The revalidate route's calls (the sync, the summary); the page's re-render makes none.
      expect(apiCallsBetween(synced, await sandboxCalls())).toBe(0)
      console.log(
        `${title}: ${path} rendered first during an outage: ${during.reviews} reviews, ${during.jsonLd} JSON-LD; ` +
          `its review shown ${recovered?.toFixed(1)} s after the revalidate route synced it ` +
          `(${apiCallsBetween(afterOutage, synced)} calls of the route, none of the page)`,
      )
    }, 120_000)
  })
}
