// @vitest-environment jsdom
import { buildProductJsonLd, fromStructuredData, JsonLdInputError } from '@verified-reviews/core/jsonld'
import type { ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { HOSTILE_STRINGS } from '../../../../test/fixtures/hostile.ts'
import { productReview, productSummary } from '../../../../test/fixtures/reviews.ts'
import { sandboxForFile } from '../../../../test/fixtures/sandbox.ts'
import { ReviewsJsonLd } from './ReviewsJsonLd.tsx'

const URL_OF_PAGE = 'https://shop.example/products/teapot'
const logger = { warn: () => {} }

/** The elements of the server HTML of `element`. */
function htmlOf(element: ReactElement | null): {
  html: string
  elements: Element[]
  scripts: HTMLScriptElement[]
} {
  const html = renderToString(element)
  const body = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html').body
  return { html, elements: [...body.querySelectorAll('*')], scripts: [...body.querySelectorAll('script')] }
}

/** The one JSON-LD script of the HTML of `element`, parsed. */
function jsonLdOf(element: ReactElement | null): unknown {
  const { scripts, elements } = htmlOf(element)
  expect(elements).toHaveLength(1)
  expect(scripts).toHaveLength(1)
  expect(scripts[0]?.type).toBe('application/ld+json')
  const text = scripts[0]?.textContent ?? ''
  expect(text).not.toMatch(/[<>&\u2028\u2029]/)
  return JSON.parse(text)
}

const rating = productSummary().ratings
const reviews = [productReview(), productReview({ review_id: 'b', author_firstname: 'Ana', review_rate: 5 })]

describe('ReviewsJsonLd from data already fetched', () => {
  it('holds the Product node of the core builder, parsed back unchanged', () => {
    const options = { url: URL_OF_PAGE, rating, reviews, logger }
    expect(jsonLdOf(<ReviewsJsonLd {...options} />)).toEqual(buildProductJsonLd(options))
  })

  it('marks up the rating with its count and bounds, and each review with author, date, body and rating', () => {
    const node = jsonLdOf(
      <ReviewsJsonLd url={URL_OF_PAGE} rating={rating} reviews={reviews} logger={logger} />,
    )
    expect(node).toMatchObject({
      '@type': 'Product',
      '@id': URL_OF_PAGE,
      aggregateRating: { ratingValue: 4.6, reviewCount: 128, bestRating: 5, worstRating: 1 },
      review: expect.arrayContaining([
        expect.objectContaining({
          author: { '@type': 'Person', name: 'Marie D.' },
          datePublished: '2025-03-05T08:00:00Z',
          reviewBody: 'Très bon produit, livré vite.',
          reviewRating: expect.objectContaining({ ratingValue: 4 }),
        }),
      ]),
    })
  })

  it('merges the page’s product facts into the same node, so the page has one Product node', () => {
    const node = jsonLdOf(
      <ReviewsJsonLd
        url={URL_OF_PAGE}
        product={{ '@id': URL_OF_PAGE, name: 'Teapot', sku: 'SKU-1' }}
        rating={rating}
        logger={logger}
      />,
    )
    expect(node).toMatchObject({ '@type': 'Product', '@id': URL_OF_PAGE, name: 'Teapot', sku: 'SKU-1' })
    expect(node).toHaveProperty('aggregateRating')
  })

  it('refuses product facts naming another page', () => {
    expect(() =>
      renderToString(<ReviewsJsonLd url={URL_OF_PAGE} product={{ '@id': 'https://other.example/' }} />),
    ).toThrow(JsonLdInputError)
  })

  it('sets the id and nonce of the script element', () => {
    const { scripts } = htmlOf(
      <ReviewsJsonLd url={URL_OF_PAGE} rating={rating} id="reviews-ld" nonce="n0nce" />,
    )
    expect(scripts[0]?.id).toBe('reviews-ld')
    expect(scripts[0]?.getAttribute('nonce')).toBe('n0nce')
  })

  it('renders nothing when there is nothing to mark up', () => {
    expect(renderToString(<ReviewsJsonLd url={URL_OF_PAGE} rating={{ average: 0, count_total: 0 }} />)).toBe(
      '',
    )
  })
})

describe('ReviewsJsonLd with hostile content', () => {
  for (const { name, value } of HOSTILE_STRINGS) {
    it(`keeps ${name} inside the script and parses back to the input`, () => {
      const options = {
        url: `https://shop.example/products/teapot?q=${encodeURIComponent(value)}`,
        product: {
          name: value,
          description: value,
          sku: value,
          brand: { '@type': 'Brand' as const, name: value },
        },
        rating,
        reviews: [
          productReview({ review_content: value }),
          // Left out of the markup when the name is too long for Google (100 characters or more).
          productReview({
            review_id: 'h',
            author_firstname: value,
            author_lastname: value,
            review_content: value,
          }),
        ],
        reviewSummary: { content: value, last_updated_at: '2025-03-01T00:00:00Z' },
        reviewSummaryAuthor: value,
        logger,
      }
      const parsed = jsonLdOf(<ReviewsJsonLd {...options} id={value} nonce={value} />)
      expect(parsed).toEqual(JSON.parse(JSON.stringify(buildProductJsonLd(options))))
      expect(parsed).toMatchObject({
        name: value,
        description: value,
        review: expect.arrayContaining([expect.objectContaining({ reviewBody: value })]),
      })
      const { scripts } = htmlOf(<ReviewsJsonLd {...options} id={value} nonce={value} />)
      expect(scripts[0]?.id).toBe(value)
    })
  }
})

describe('ReviewsJsonLd from the structured-datas operation', () => {
  const sb = sandboxForFile({ rateLimit: 0 })

  it('renders the node the core reads from the API', async () => {
    const client = sb.client()
    const element = await ReviewsJsonLd({
      source: 'api',
      productId: 'SKU-001',
      url: URL_OF_PAGE,
      client,
      logger,
    })
    const data = await client.products.structuredData.get({
      product_variation_id: 'SKU-001',
      canonical_url: URL_OF_PAGE,
    })
    expect(jsonLdOf(element)).toEqual(
      JSON.parse(JSON.stringify(fromStructuredData(data, { url: URL_OF_PAGE, logger }))),
    )
  })

  it('agrees with the markup built from the ratings and newest reviews, but for the languages the blocks do not say', async () => {
    const client = sb.client()
    const [productRating] = await client.products.ratings.list({
      type: 'product_variation_id',
      value: ['SKU-002'],
    })
    const newest = await client.products.reviews.list({
      product_variation_id: ['SKU-002'],
      sort: 'publish_date',
      desc: 'publish_date',
      limit: 5,
    })
    // The blocks carry syndicated reviews and no language: the local markup is asked for the same reviews.
    const local = jsonLdOf(
      <ReviewsJsonLd
        url={URL_OF_PAGE}
        rating={productRating}
        reviews={newest.data}
        syndicatedReviews
        logger={logger}
      />,
    )
    const remote = await ReviewsJsonLd({
      source: 'api',
      productId: 'SKU-002',
      url: URL_OF_PAGE,
      filters: ['aggregate_rating', 'reviews'],
      client,
      logger,
    })
    const withoutLanguage = (node: unknown) =>
      JSON.parse(JSON.stringify(node, (key, value) => (key === 'inLanguage' ? undefined : value)))
    expect(JSON.stringify(local)).toContain('"inLanguage"')
    expect(withoutLanguage(jsonLdOf(remote))).toEqual(withoutLanguage(local))
  })

  it('asks for no AI summary and marks none up by default', async () => {
    const client = sb.client()
    const element = await ReviewsJsonLd({
      source: 'api',
      productId: 'SKU-001',
      url: URL_OF_PAGE,
      client,
      logger,
    })
    const node = jsonLdOf(element) as { review: { author: { '@type': string } }[] }
    expect(node.review.map((review) => review.author['@type'])).not.toContain('Organization')
  })

  it('marks up the AI summary block as a review by reviewSummaryAuthor when it opts in', async () => {
    const element = await ReviewsJsonLd({
      source: 'api',
      productId: 'SKU-001',
      url: URL_OF_PAGE,
      reviewSummaryAuthor: 'Maison Sandbox',
      client: sb.client(),
      logger,
    })
    const node = jsonLdOf(element) as { review: { author: unknown }[] }
    expect(node.review.at(-1)?.author).toEqual({ '@type': 'Organization', name: 'Maison Sandbox' })
  })

  it('asks for the blocks and the number of reviews given', async () => {
    const element = await ReviewsJsonLd({
      source: 'api',
      productId: 'SKU-001',
      url: URL_OF_PAGE,
      filters: 'reviews',
      reviewsLimit: 2,
      client: sb.client(),
      logger,
    })
    const node = jsonLdOf(element) as { aggregateRating?: unknown; review: unknown[] }
    expect(node.aggregateRating).toBeUndefined()
    expect(node.review).toHaveLength(2)
  })

  it('renders nothing and reports once when the API fails', async () => {
    await sb.faults([{ operation: 'products.structured-data.get', status: 500 }])
    const onError = vi.fn()
    const element = await ReviewsJsonLd({
      source: 'api',
      productId: 'SKU-001',
      url: URL_OF_PAGE,
      client: sb.client({ maxRetries: 0 }),
      onError,
    })
    expect(element).toBeNull()
    expect(onError).toHaveBeenCalledTimes(1)
    expect(onError.mock.calls[0]?.[1]).toEqual({ component: 'ReviewsJsonLd' })
  })
})
