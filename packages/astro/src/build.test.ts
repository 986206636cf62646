import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOSTILE_STRINGS } from '../../../test/fixtures/hostile.ts'
import { startSandbox, type TestSandbox } from '../../../test/fixtures/sandbox.ts'
import { buildFixture, pointEnvironmentAt, readPages, takeOperations } from '../test/build-fixture.ts'
import verifiedReviews from './index.ts'

/** What one build of the fixture left: the API operations it made and its pages. */
interface Build {
  operations: Record<string, number>
  pages: Map<string, string>
}

const SEEDED = { productReviews: 3000, brandReviews: 500, productsWithReviews: 54 }
const HOSTILE_SKU = 'SKU-003'

let sb: TestSandbox
let restoreEnvironment: () => void
let outDir: string
let cacheDir: string
let first: Build
let second: Build

async function buildShop(): Promise<Build> {
  await buildFixture('shop', {
    site: 'https://shop.example',
    outDir,
    cacheDir,
    integrations: [verifiedReviews({ maxReviews: 20 })],
  })
  const { 'token.published': _token, ...operations } = await takeOperations(sb)
  return { operations, pages: await readPages(outDir) }
}

/** The parsed content of every JSON-LD script of a page. */
function jsonLdOf(html: string): unknown[] {
  return [...html.matchAll(/<script[^>]*type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? ''),
  )
}

function page(build: Build, file: string): string {
  const html = build.pages.get(file)
  if (html === undefined)
    throw new Error(`the build has no ${file} (it has ${[...build.pages.keys()].join(', ')})`)
  return html
}

function counts(build: Build): Record<string, string | undefined> {
  const tag = /<p id="counts"([^>]*)>/.exec(page(build, 'index.html'))?.[1] ?? ''
  return Object.fromEntries(
    [...tag.matchAll(/data-([a-z-]+)="(\d+)"/g)].map(([, name, value]) => [name, value]),
  )
}

beforeAll(async () => {
  sb = await startSandbox({ seed: 1 })
  restoreEnvironment = pointEnvironmentAt(sb)
  outDir = await mkdtemp(join(tmpdir(), 'vr-astro-out-'))
  cacheDir = await mkdtemp(join(tmpdir(), 'vr-astro-cache-'))
  first = await buildShop()
  await sb.admin(
    'POST',
    'product-reviews',
    // Not syndicated: the injection leaves syndicated reviews out of the markup.
    HOSTILE_STRINGS.map(({ value }) => ({
      product_variation_id: HOSTILE_SKU,
      review_content: value,
      syndicated_review: false,
    })),
  )
  await takeOperations(sb)
  second = await buildShop()
}, 180_000)

afterAll(async () => {
  restoreEnvironment?.()
  await sb?.close()
  await rm(outDir, { recursive: true, force: true })
  await rm(cacheDir, { recursive: true, force: true })
})

describe('the content loaders', () => {
  it('load every review and rating on the first build', () => {
    expect(counts(first)).toEqual({
      'product-reviews': String(SEEDED.productReviews),
      'brand-reviews': String(SEEDED.brandReviews),
      ratings: String(SEEDED.productsWithReviews),
    })
  })

  it('run a full sync on the first build: one call per 200 reviews', () => {
    expect(first.operations).toMatchObject({
      'products.reviews.list': SEEDED.productReviews / 200,
      'brands.reviews.list': Math.ceil(SEEDED.brandReviews / 200),
    })
  })

  it('make only the incremental calls on the second build', () => {
    expect(second.operations).toMatchObject({ 'products.reviews.list': 1, 'brands.reviews.list': 1 })
  })

  it('add the reviews published between the builds and keep the unchanged collections whole', () => {
    expect(counts(second)).toEqual({
      'product-reviews': String(SEEDED.productReviews + HOSTILE_STRINGS.length),
      'brand-reviews': String(SEEDED.brandReviews),
      ratings: String(SEEDED.productsWithReviews),
    })
    const reviewsOf = (build: Build) =>
      Number(/id="review-count">(\d+)</.exec(page(build, 'products/sku-003/index.html'))?.[1])
    expect(reviewsOf(second) - reviewsOf(first)).toBe(HOSTILE_STRINGS.length)
  })

  it('take the ratings from the product summaries: one call for the product list, none for ratings', () => {
    expect(first.operations['products.list']).toBe(1)
    expect(second.operations['products.list']).toBe(1)
  })

  it('make no per-page call and never ask for structured data', () => {
    for (const build of [first, second]) {
      expect(Object.keys(build.operations).sort()).toEqual([
        'brands.reviews.list',
        'products.list',
        'products.reviews.list',
      ])
    }
  })
})

describe('the injection of review rich snippets after the build', () => {
  it('gives each marked product page exactly one Product node, at the page URL', () => {
    for (const sku of ['sku-001', 'sku-003']) {
      const documents = jsonLdOf(page(second, `products/${sku}/index.html`))
      expect(documents).toHaveLength(1)
      expect(documents[0]).toMatchObject({
        '@type': 'Product',
        '@id': `https://shop.example/products/${sku}/`,
        aggregateRating: { '@type': 'AggregateRating', bestRating: 5, worstRating: 1 },
      })
    }
  })

  it('reuses the reviews the loader synced and the ratings of its summaries: no call of its own', () => {
    expect(first.operations['products.ratings.list']).toBeUndefined()
    expect(second.operations['products.ratings.list']).toBeUndefined()
    expect(second.operations['products.list']).toBe(1)
  })

  it('marks up the rating the API gives, with the review count', async () => {
    const vr = sb.client()
    const [rating] = await vr.products.ratings.list({ type: 'product_variation_id', value: ['SKU-001'] })
    const [node] = jsonLdOf(page(second, 'products/sku-001/index.html')) as [{ aggregateRating: unknown }]
    expect(node.aggregateRating).toMatchObject({
      reviewCount: rating?.count_total,
      ratingValue: Math.round((rating?.average ?? 0) * 10) / 10,
    })
  })

  it("merges into the page's own Product node and keeps its facts", () => {
    const documents = jsonLdOf(page(second, 'own-node/index.html'))
    expect(documents).toEqual([
      expect.objectContaining({
        '@id': 'https://shop.example/own-node/',
        name: 'Teapot with its own markup',
        sku: 'SKU-002',
        aggregateRating: expect.objectContaining({ '@type': 'AggregateRating' }),
      }),
    ])
  })

  it('adds nothing to a product without reviews, a listing of several products or an unmarked page', () => {
    for (const file of ['products/sku-012/index.html', 'listing/index.html', 'index.html']) {
      expect(jsonLdOf(page(second, file))).toEqual([])
    }
  })

  it.each(HOSTILE_STRINGS)('keeps review text with $name inside valid JSON-LD', ({ value }) => {
    const html = page(second, `products/${HOSTILE_SKU.toLowerCase()}/index.html`)
    const [node] = jsonLdOf(html) as [{ review: { reviewBody?: string }[] }]
    expect(node.review.map((review) => review.reviewBody)).toContain(value)
  })

  it('lets no markup out of the JSON-LD script', () => {
    const html = page(second, `products/${HOSTILE_SKU.toLowerCase()}/index.html`)
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)]
    expect(scripts).toHaveLength(1)
    expect(scripts[0]?.[1]).not.toMatch(/[<>]/)
    expect(html).not.toContain('alert(1)</script>')
  })
})
