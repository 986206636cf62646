/**
 * The hand-written baseline of the `next` step of `pnpm bench:scale` renders what the library renders:
 * for every product of the seeded sandbox, the page's reviews written by hand
 * (test/bench/fixtures/next-scale-hand, from the JSON files the bench writes) give the same HTML as
 * `ProductReviewsView` with the same data and the props of next-scale's page, the JSON-LD and the
 * island's server render included. No framework build: both are rendered with `renderToString`.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ProductReviewsView } from '@verified-reviews/react'
import { renderToString } from 'react-dom/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type TestSandbox } from '../../fixtures/sandbox.ts'
import { ProductReviews as HandWritten } from '../fixtures/next-scale-hand/app/product-reviews.tsx'
import type { Product } from '../fixtures/next-scale-hand/app/reviews-data.ts'
import {
  HAND_WRITTEN_INDEX,
  type HandWrittenProduct,
  readHandWrittenProduct,
  writeHandWrittenData,
} from './hand-written-data.ts'

let sb: TestSandbox
let dir: string
let ids: string[]
let products: HandWrittenProduct[]

beforeAll(async () => {
  sb = await startSandbox({ seed: 1 })
  dir = await mkdtemp(join(tmpdir(), 'vr-hand-written-'))
  const { data } = await sb.client().products.list({ limit: 200 })
  ids = data.map((summary) => summary.product_variation_id).sort()
  // One product the API does not know: a page without reviews.
  ids.push('SKU-NONE')
  await writeHandWrittenData(sb.env(), dir, ids)
  products = await Promise.all(ids.map((id) => readHandWrittenProduct(dir, id)))
}, 60_000)

afterAll(async () => {
  await sb?.close()
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

function ours(product: HandWrittenProduct): string {
  return renderToString(
    <ProductReviewsView
      productId={product.id}
      locale="en"
      url={`https://shop.example/products/${product.id}`}
      product={{ name: product.id, sku: product.id }}
      endpoint="/api/reviews"
      summary={product.summary ?? undefined}
      reviews={product.reviews}
      nextCursor={product.nextCursor ?? undefined}
    />,
  )
}

function byHand(product: HandWrittenProduct): string {
  return renderToString(
    <HandWritten
      product={product as Product}
      url={`https://shop.example/products/${product.id}`}
      name={product.id}
      endpoint="/api/reviews"
    />,
  )
}

describe('the hand-written baseline of the next step', () => {
  it('writes one file per product and the list of products', async () => {
    const files = await readdir(dir)
    expect(files).toContain(HAND_WRITTEN_INDEX)
    expect(files.filter((name) => name !== HAND_WRITTEN_INDEX)).toHaveLength(ids.length)
  })

  it('holds the first page of each product, newest first, with a signed cursor when there are more', async () => {
    const total = new Map<string, number>()
    for await (const review of sb.client().products.reviews.list({ limit: 200 })) {
      total.set(review.product_variation_id, (total.get(review.product_variation_id) ?? 0) + 1)
    }
    for (const product of products) {
      const count = total.get(product.id) ?? 0
      expect(product.reviews).toHaveLength(Math.min(10, count))
      const dates = product.reviews.map((review) => Date.parse(review.publish_date))
      expect(dates).toEqual([...dates].sort((a, b) => b - a))
      expect(product.nextCursor === null).toBe(count <= 10)
    }
    expect(products.some((product) => product.nextCursor !== null)).toBe(true)
  })

  it('renders the HTML of ProductReviewsView for every product', () => {
    for (const product of products) {
      const expected = ours(product)
      const actual = byHand(product)
      if (actual !== expected) {
        const at = [...expected].findIndex((char, i) => char !== actual[i])
        expect.fail(
          `${product.id} differs from character ${at}:\nours: ${expected.slice(Math.max(0, at - 120), at + 120)}\nhand: ${actual.slice(Math.max(0, at - 120), at + 120)}`,
        )
      }
    }
  })

  it('covers the parts of a review the sandbox seeds', () => {
    const html = products.map(byHand).join('')
    for (const part of [
      'vr-review__translation-note',
      'vr-review__medias',
      'vr-review__source',
      'vr-reply__content',
      'vr-review__criteria',
      ' out of 5</dd>',
      'vr-review__disclosure',
      'vr-rating-summary--empty',
      'vr-review-list__more',
      'application/ld+json',
    ]) {
      expect(html).toContain(part)
    }
  })
})
