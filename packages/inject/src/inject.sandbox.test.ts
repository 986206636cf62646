import { readdirSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { ProductReview } from '@verified-reviews/core'
import { createSqliteReviewStore } from '@verified-reviews/core/sync'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
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

async function writePages(files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, file)), { recursive: true })
    await writeFile(join(dir, file), text)
  }
}

interface MarkedNode {
  '@type': string
  aggregateRating?: { reviewCount: number }
  review?: { reviewBody?: string; inLanguage?: string; author: { '@type': string; name: string } }[]
  hasVariant?: unknown[]
}

async function nodeOf(file: string): Promise<MarkedNode> {
  const [node] = jsonLdOf(await readFile(join(dir, file), 'utf8')) as MarkedNode[]
  if (node === undefined) throw new Error(`${file} has no JSON-LD`)
  return node
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
  it('makes ceil(reviews / 200) review calls and ceil(products / 200) summary calls, whatever the page count', async () => {
    await writeSite()
    const report = await run()
    expect(report.apiCalls).toEqual({ reviews: SEEDED_REVIEWS / 200, products: 1, total: 16 })
    expect(report.fetch?.mode).toBe('full')
    expect(await operations()).toMatchObject({ 'products.reviews.list': 15, 'products.list': 1 })
    expect(await operations()).not.toHaveProperty('products.ratings.list')
    expect(await operations()).not.toHaveProperty('products.structured-data.get')
  })

  it('syncs into a JSON file store in a temporary folder when given no store, and removes the folder', async () => {
    await writeSite()
    const temporary = await mkdtemp(join(tmpdir(), 'vr-inject-tmp-'))
    const before = process.env.TMPDIR
    process.env.TMPDIR = temporary
    try {
      const seen: string[][] = []
      const report = await run({
        // Told synchronously: what the temporary folder holds once the reviews are fetched.
        onProgress: (progress) => {
          if (progress.phase !== 'write' || progress.done !== 0) return
          const [folder, ...others] = readdirSync(temporary)
          seen.push([
            folder ?? '',
            ...others,
            ...(folder === undefined ? [] : readdirSync(join(temporary, folder))),
          ])
        },
      })
      expect(report.changedPages).toBe(54)
      expect(seen).toHaveLength(1)
      expect(seen[0]?.[0]).toMatch(/^verified-reviews-inject-/)
      expect(seen[0]?.slice(1)).toContain('reviews.sqlite')
      expect(await readdir(temporary)).toEqual([])
    } finally {
      if (before === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = before
      await rm(temporary, { recursive: true, force: true })
    }
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
        // No canonical link: the page's URL under the site, its .html kept (no cleanUrls).
        '@id': 'https://shop.example/products/sku-002.html',
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
    const store = join(dir, '..', `${dir.split(/[\\/]/).pop()}-reviews.sqlite`)
    try {
      await run({ reviewStore: createSqliteReviewStore<ProductReview>(store) })
      const hostile = '</script><script>alert(1)</script> & <!-- \u2028'
      await sb.admin('POST', 'product-reviews', [
        { product_variation_id: 'SKU-003', review_content: hostile, author_firstname: 'Zoé' },
      ])
      await sb.admin('DELETE', 'stats')
      const second = await run({ reviewStore: createSqliteReviewStore<ProductReview>(store) })
      expect(second.apiCalls).toEqual({ reviews: 1, products: 1, total: 2 })
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
      for (const end of ['', '-wal', '-shm']) await rm(`${store}${end}`, { force: true })
    }
  })

  it("puts the aggregate over a group's variations on the page's own ProductGroup node", async () => {
    const group = {
      '@context': 'https://schema.org',
      '@type': 'ProductGroup',
      name: 'Waterproof Parka',
      productGroupID: 'PARKA',
      hasVariant: [
        { '@type': 'Product', sku: 'A' },
        { '@type': 'Product', sku: 'B' },
      ],
    }
    await writePages({
      'parka/index.html': html(
        `${meta('SKU-013,SKU-017')}<script type="application/ld+json">${JSON.stringify(group)}</script>`,
      ),
    })
    const report = await run()
    const ratings = await sb.client().products.ratings.list({
      type: 'product_variation_id',
      value: ['SKU-013', 'SKU-017'],
    })
    expect(report).toMatchObject({ changedPages: 1, products: 2 })
    const node = await nodeOf('parka/index.html')
    expect(node).toMatchObject({
      '@type': 'ProductGroup',
      productGroupID: 'PARKA',
      hasVariant: group.hasVariant,
    })
    expect(node.aggregateRating?.reviewCount).toBe(
      ratings.reduce((sum, rating) => sum + rating.count_total, 0),
    )
    expect(node.review).toHaveLength(5)
  })

  it('skips a page that marks a group of variations without a ProductGroup node of its own', async () => {
    await writePages({ 'parka/index.html': html(meta('SKU-013,SKU-017')) })
    const report = await run()
    expect(report.skippedPages).toEqual([
      { file: 'parka/index.html', reason: expect.stringContaining("the page's own ProductGroup node") },
    ])
  })

  it('marks up the translation a page shows in the language of its html element, with inLanguage', async () => {
    await sb.admin('POST', 'product-reviews', [
      {
        product_variation_id: 'SKU-001',
        locale: 'fr_FR',
        review_content: 'Très chaud.',
        translated_review: { fr: 'Très chaud.', en: 'Very warm.' },
        author_firstname: 'Zoé',
      },
    ])
    await writePages({
      'en/index.html': html(meta('SKU-001')).replace('<html>', '<html lang="en-GB">'),
      'fr/index.html': html(meta('SKU-001')).replace('<html>', '<html lang="fr">'),
      'none/index.html': html(meta('SKU-001')),
    })
    await run()
    expect((await nodeOf('en/index.html')).review?.[0]).toMatchObject({
      reviewBody: 'Very warm.',
      inLanguage: 'en',
    })
    expect((await nodeOf('fr/index.html')).review?.[0]).toMatchObject({
      reviewBody: 'Très chaud.',
      inLanguage: 'fr',
    })
    expect((await nodeOf('none/index.html')).review?.[0]).toMatchObject({
      reviewBody: 'Très chaud.',
      inLanguage: 'fr',
    })
  })

  it('leaves syndicated reviews out of the review items unless syndicatedReviews opts in', async () => {
    await sb.admin('POST', 'product-reviews', [
      {
        product_variation_id: 'SKU-001',
        review_content: 'Shared from our Belgian shop.',
        syndicated_review: true,
        syndicated_review_source: 'Maison Sandbox Belgique',
        syndicated_review_source_url: 'https://be.maison-sandbox.example',
        author_firstname: 'Zoé',
      },
    ])
    await writePages({ 'p/index.html': html(meta('SKU-001')) })
    await run()
    const bodies = (await nodeOf('p/index.html')).review?.map((review) => review.reviewBody)
    expect(bodies).toHaveLength(5)
    expect(bodies).not.toContain('Shared from our Belgian shop.')
    await run({ syndicatedReviews: true })
    expect((await nodeOf('p/index.html')).review?.[0]?.reviewBody).toBe('Shared from our Belgian shop.')
  })

  it('marks up the AI summary only when reviewSummaryAuthor opts in, as a review by that organization', async () => {
    await writePages({ 'p/index.html': html(meta('SKU-001')) })
    await run()
    const authors = (node: MarkedNode) => node.review?.map((review) => review.author['@type'])
    expect(authors(await nodeOf('p/index.html'))).not.toContain('Organization')
    await run({ reviewSummaryAuthor: 'Maison Sandbox' })
    expect((await nodeOf('p/index.html')).review?.at(-1)?.author).toEqual({
      '@type': 'Organization',
      name: 'Maison Sandbox',
    })
  })
})

describe('injectProductJsonLd with a kept store and named products', () => {
  const sku = (n: number) => `SKU-${String(n).padStart(3, '0')}`
  const pageOf = (n: number) => `products/${sku(n).toLowerCase()}/index.html`
  /** Pages of SKU-001 to SKU-040: 40 of the 60 seeded products, so that their reviews cost fewer calls than the sync. */
  async function writeMarked(from: number, to: number): Promise<void> {
    const files: Record<string, string> = {}
    for (let n = from; n <= to; n++) files[pageOf(n)] = html(meta(sku(n)))
    await writePages(files)
  }
  async function snapshot(): Promise<Map<string, string>> {
    const texts = new Map<string, string>()
    for (let n = 1; n <= 60; n++) {
      const text = await readFile(join(dir, pageOf(n)), 'utf8').catch(() => undefined)
      if (text !== undefined) texts.set(pageOf(n), text)
    }
    return texts
  }
  async function changedSince(before: Map<string, string>): Promise<string[]> {
    const after = await snapshot()
    return [...after].filter(([file, text]) => before.get(file) !== text).map(([file]) => file)
  }
  async function reviewCalls(): Promise<number> {
    const calls = (await operations())['products.reviews.list'] ?? 0
    await sb.admin('DELETE', 'stats')
    return calls
  }

  it('fetches the marked products once, then only what changed, and a newly marked product in full', async () => {
    await writeMarked(1, 40)
    const file = join(dir, '..', `${dir.split(/[\\/]/).pop()}-named.sqlite`)
    const store = () => createSqliteReviewStore<ProductReview>(file)
    try {
      const first = await run({ reviewStore: store() })
      expect(first.fetch?.mode).toBe('named')
      expect(first.changedPages + first.pagesWithoutReviews).toBe(40)
      const withReviews = first.changedPages
      const firstCalls = await reviewCalls()
      expect(firstCalls).toBe(first.fetch?.estimate.named)

      let before = await snapshot()
      const second = await run({ reviewStore: store() })
      // The 40 held products in one list, newest first: its first review is held.
      expect(await reviewCalls()).toBe(1)
      expect(second).toMatchObject({ changedPages: 0, unchangedPages: withReviews })
      expect(await changedSince(before)).toEqual([])

      await sb.admin('POST', 'product-reviews', [
        { product_variation_id: 'SKU-003', review_rate: 5, review_content: 'Warm and soft, true to size.' },
        { product_variation_id: 'SKU-017', review_rate: 4, review_content: 'Good, a little long.' },
      ])
      await reviewCalls()
      before = await snapshot()
      const third = await run({ reviewStore: store() })
      expect(await reviewCalls()).toBe(1)
      expect(third).toMatchObject({ changedPages: 2 })
      expect(await changedSince(before)).toEqual([pageOf(3), pageOf(17)])
      expect((await nodeOf(pageOf(3))).review?.[0]?.reviewBody).toBe('Warm and soft, true to size.')

      // A product the store never fetched gets its reviews, though the store holds a finished fetch.
      await writeMarked(41, 41)
      const fourth = await run({ reviewStore: store() })
      // The held products down to the first held review, and the new one in full.
      expect(await reviewCalls()).toBe(2)
      expect(fourth.changedPages).toBe(1)
      const expected = await sb
        .client()
        .products.ratings.list({ type: 'product_variation_id', value: [sku(41)] })
      expect((await nodeOf(pageOf(41))).aggregateRating?.reviewCount).toBe(expected[0]?.count_total)
      expect((await nodeOf(pageOf(41))).review).toHaveLength(5)
    } finally {
      for (const end of ['', '-wal', '-shm']) await rm(`${file}${end}`, { force: true })
    }
  })
})
