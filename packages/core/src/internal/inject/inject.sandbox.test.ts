import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import type { ProductReview } from '../../types/published.ts'
import { createJsonFileReviewStore } from '../sync/json-file-store.ts'
import { parseHtml } from './html.ts'
import { type InjectProductJsonLdOptions, injectProductJsonLd } from './inject-directory.ts'

const SITE = 'https://shop.example/'
/** Seeded products: 60, of which SKU-012 (among 6) has no review; 3,000 product reviews. */
const SEEDED_REVIEWS = 3000

const sb = sandboxForFile({ seed: 1 })
let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vr-inject-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function operations(): Promise<Record<string, number>> {
  return (await sb.stats()).operations
}

function html(head: string, body = ''): string {
  return `<!doctype html><html><head><title>Shop</title>${head}</head><body>${body}</body></html>`
}

const meta = (sku: string) => `<meta name="verified-reviews:product" content="${sku}">`

/** A small site: product pages of every seeded product, plus pages without or with several products. */
async function writeSite(): Promise<void> {
  const files: Record<string, string> = {
    'index.html': html(''),
    'about.html': html('', '<p>About us</p>'),
    'products/index.html': html(
      '',
      '<li data-verified-reviews-product="SKU-001"></li><li data-verified-reviews-product="SKU-002"></li>',
    ),
    'products/sku-002.html': html(
      `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Own name"}</script>`,
      '<div data-verified-reviews-product="SKU-002"></div>',
    ),
  }
  for (let n = 1; n <= 60; n++) {
    const sku = `SKU-${String(n).padStart(3, '0')}`
    if (sku !== 'SKU-002') files[`products/${sku.toLowerCase()}/index.html`] = html(meta(sku))
  }
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, file)), { recursive: true })
    await writeFile(join(dir, file), text)
  }
}

function jsonLdOf(text: string): unknown[] {
  return parseHtml(text)
    .scripts.filter((script) => script.attributes.get('type') === 'application/ld+json')
    .map((script) => JSON.parse(script.text))
}

function run(options: Partial<InjectProductJsonLdOptions> = {}) {
  return injectProductJsonLd({ dir, site: SITE, client: sb.client(), logger: { warn() {} }, ...options })
}

describe('injectProductJsonLd against the sandbox', () => {
  it('makes ceil(reviews / 200) review calls and ceil(products / 200) rating calls, whatever the page count', async () => {
    await writeSite()
    const report = await run()
    expect(report.apiCalls).toEqual({ reviews: SEEDED_REVIEWS / 200, ratings: 1, products: 0, total: 16 })
    expect(await operations()).toMatchObject({ 'products.reviews.list': 15, 'products.ratings.list': 1 })
    expect(await operations()).not.toHaveProperty('products.structured-data.get')
  })

  it('reports the pages it changed, those without reviews and those it skipped', async () => {
    await writeSite()
    const report = await run()
    expect(report).toMatchObject({
      pages: 63,
      markedPages: 61,
      changedPages: 54,
      unchangedPages: 0,
      pagesWithoutReviews: 6,
      products: 60,
    })
    expect(report.skippedPages).toEqual([
      { file: 'products/index.html', reason: expect.stringContaining('marks 2 products (SKU-001, SKU-002)') },
    ])
  })

  it("gives each product page one Product node with the product's rating, at the page's URL", async () => {
    await writeSite()
    await run()
    const [rating] = await sb.client().products.ratings.list({
      type: 'product_variation_id',
      value: ['SKU-001'],
    })
    const documents = jsonLdOf(await readFile(join(dir, 'products/sku-001/index.html'), 'utf8'))
    expect(documents).toHaveLength(1)
    expect(documents[0]).toMatchObject({
      '@type': 'Product',
      '@id': 'https://shop.example/products/sku-001/',
      name: 'Merino Wool Sweater – Forest Green',
      aggregateRating: {
        reviewCount: rating?.count_total,
        ratingValue: Math.round((rating?.average ?? 0) * 10) / 10,
      },
    })
    expect((documents[0] as { review: unknown[] }).review).toHaveLength(5)
  })

  it("merges into the page's own Product node and keeps its name", async () => {
    await writeSite()
    await run()
    const documents = jsonLdOf(await readFile(join(dir, 'products/sku-002.html'), 'utf8'))
    expect(documents).toEqual([
      expect.objectContaining({
        '@id': 'https://shop.example/products/sku-002',
        name: 'Own name',
        aggregateRating: expect.objectContaining({ '@type': 'AggregateRating' }),
      }),
    ])
  })

  it('writes nothing with dryRun', async () => {
    await writeSite()
    const before = await readFile(join(dir, 'products/sku-001/index.html'), 'utf8')
    const report = await run({ dryRun: true })
    expect(report.changedPages).toBe(54)
    expect(await readFile(join(dir, 'products/sku-001/index.html'), 'utf8')).toBe(before)
  })

  it('skips pages without a canonical link when no site is given', async () => {
    await writeSite()
    const report = await run({ site: undefined })
    expect(report.changedPages).toBe(0)
    const withoutUrl = report.skippedPages.filter((page) => page.reason.includes('has no absolute URL'))
    expect(withoutUrl).toHaveLength(60)
  })

  it('makes one review call on the second run with a kept store, and changes only the page that got a review', async () => {
    await writeSite()
    const store = join(dir, '..', `${dir.split(/[\\/]/).pop()}-reviews.json`)
    try {
      await run({ reviewStore: createJsonFileReviewStore<ProductReview>(store) })
      const hostile = '</script><script>alert(1)</script> & <!-- \u2028'
      await sb.admin('POST', 'product-reviews', [
        { product_variation_id: 'SKU-003', review_content: hostile, author_firstname: 'Zoé' },
      ])
      await sb.admin('DELETE', 'stats')
      const second = await run({ reviewStore: createJsonFileReviewStore<ProductReview>(store) })
      expect(second.apiCalls).toEqual({ reviews: 1, ratings: 1, products: 0, total: 2 })
      expect(second.sync).toMatchObject({
        mode: 'incremental',
        newReviews: 1,
        affectedProductIds: ['SKU-003'],
      })
      expect(second).toMatchObject({ changedPages: 1, unchangedPages: 53 })
      const text = await readFile(join(dir, 'products/sku-003/index.html'), 'utf8')
      expect(text).not.toContain('</script><script>alert(1)')
      const [node] = jsonLdOf(text) as [{ review: { reviewBody: string }[] }]
      expect(node.review[0]?.reviewBody).toBe(hostile)
    } finally {
      await rm(store, { force: true })
    }
  })
})
