// The end-to-end tests of a small Next.js site with one product page (a fixture folder): built from the
// shared prefetch, its HTML, then a revalidation of one product. Run on the Cache Components fixture and
// on the ISR one, which must behave alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type NextApp, startNextApp } from './next-demo-app.ts'

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
  })
}
