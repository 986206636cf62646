// The builder's output checked against Google's rich-result rules by an independent implementation
// (@adobe/structured-data-validator, product snippets and merchant listings), without building a demo.
import type { ProductReview, StructuredData } from '@verified-reviews/core'
import {
  buildProductJsonLd,
  fromStructuredData,
  jsonLdScriptTag,
  type ProductFacts,
  type ProductGroupFacts,
} from '@verified-reviews/core/jsonld'
import { addProductJsonLd } from '@verified-reviews/inject'
import { describe, expect, it } from 'vitest'
import { HOSTILE_STRINGS } from '../fixtures/hostile.ts'
import { productReview } from '../fixtures/reviews.ts'
import { errorsOf, jsonLdTypes, pageWithHead, richResultIssues } from '../fixtures/rich-results.ts'

const url = 'https://shop.example/en/products/kettle/'
const logger = { warn: () => {} }

/** What a shop knows of a product and puts on its page: price, currency, availability, image, description. */
const facts: ProductFacts = {
  name: 'Cast Iron Kettle – Stone Grey',
  description: 'A cast iron kettle for every hob, enamelled in stone grey.',
  image: 'https://shop.example/images/kettle.svg',
  sku: 'CC-KIT-4241',
  gtin13: '3751793710252',
  brand: { '@type': 'Brand', name: 'Cala Cuisine' },
  offers: {
    '@type': 'Offer',
    url,
    price: 49.9,
    priceCurrency: 'EUR',
    availability: 'https://schema.org/InStock',
    itemCondition: 'https://schema.org/NewCondition',
  },
}

const reviews: ProductReview[] = [
  productReview(),
  productReview({
    review_id: 'rev-2',
    publish_date: '2025-03-07T08:00:00Z',
    locale: 'de_DE',
    review_content: 'Schön und schwer.',
    review_rate: 5,
    translated_review: { en: 'Beautiful and heavy.' },
  }),
]
const rating = { average: 4.5, count_total: 2 }

function page(node: unknown): string {
  return pageWithHead(jsonLdScriptTag(node))
}

describe("the JSON-LD builder against Google's product rules", () => {
  it('lets the validator catch a bare Product, as Google rejects it (the check can fail)', async () => {
    const bare = {
      '@context': 'https://schema.org',
      '@type': 'Product',
      '@id': url,
      name: 'Kettle',
      sku: 'K',
    }
    expect(errorsOf(await richResultIssues(page(bare)))).toEqual(
      expect.arrayContaining([expect.stringContaining('"aggregateRating", "offers" or "review"')]),
    )
  })

  it('gives no Product node at all for a product with neither offers nor reviews', async () => {
    const { offers: _offers, ...withoutOffers } = facts
    const node = buildProductJsonLd({ url, product: withoutOffers, logger })
    expect(node).toBeNull()
    expect(jsonLdTypes(page(node))).toEqual({})
  })

  it('passes with 0 errors for a product with its facts, a rating and reviews', async () => {
    const node = buildProductJsonLd({ url, product: facts, rating, reviews, locale: 'en', logger })
    expect(node?.review).toHaveLength(2)
    expect(errorsOf(await richResultIssues(page(node)))).toEqual([])
  })

  it('passes with 0 errors for a product with its facts and no reviews yet', async () => {
    const node = buildProductJsonLd({ url, product: facts, rating: { average: 0, count_total: 0 }, logger })
    expect(jsonLdTypes(page(node))).toEqual({ Product: 1 })
    expect(errorsOf(await richResultIssues(page(node)))).toEqual([])
  })

  it('passes with 0 errors for a product group whose variations keep their own facts', async () => {
    const group: ProductGroupFacts = {
      '@type': 'ProductGroup',
      name: 'Waterproof Parka',
      description: 'A waterproof parka in four colours.',
      brand: { '@type': 'Brand', name: 'Nordvik' },
      productGroupID: 'NV-PARKA',
      variesBy: 'https://schema.org/color',
      hasVariant: ['Navy', 'Sand'].map((color, index) => ({
        name: `Waterproof Parka – ${color}`,
        sku: `NV-APP-000${index}`,
        gtin13: `375179371025${index}`,
        color,
        image: `https://shop.example/images/parka-${index}.svg`,
        offers: {
          '@type': 'Offer',
          price: 189,
          priceCurrency: 'EUR',
          availability: 'https://schema.org/InStock',
        },
      })),
    }
    const node = buildProductJsonLd({ url, product: group, rating, reviews, logger })
    expect(jsonLdTypes(page(node))).toEqual({ ProductGroup: 1 })
    expect(errorsOf(await richResultIssues(page(node)))).toEqual([])
  })

  it('passes with 0 errors for the node built from the structured-datas operation', async () => {
    const data: StructuredData = {
      ratings: {
        '@context': 'https://schema.org',
        aggregateRating: {
          '@type': 'AggregateRating',
          ratingValue: 4.5,
          reviewCount: 2,
          bestRating: 5,
          worstRating: 1,
          itemReviewed: { '@id': url },
        },
      },
      reviews: {
        '@context': 'https://schema.org',
        review: [
          {
            '@type': 'Review',
            reviewBody: 'Très bon produit.',
            datePublished: '2025-03-05T08:00:00Z',
            reviewRating: { '@type': 'Rating', ratingValue: 4, bestRating: 5, worstRating: 1 },
            author: { '@type': 'Person', name: 'Marie D.' },
          },
        ],
      },
    }
    const node = fromStructuredData(data, { url, product: facts, logger })
    expect(errorsOf(await richResultIssues(page(node)))).toEqual([])
  })

  it("passes with 0 errors once the injector merged the markup into the page's own node", async () => {
    const own = jsonLdScriptTag({
      '@context': 'https://schema.org',
      '@type': 'Product',
      '@id': url,
      ...facts,
    })
    const node = buildProductJsonLd({ url, product: { name: facts.name }, rating, reviews, logger })
    const result = addProductJsonLd(pageWithHead(own), { ...node })
    expect(result.status).toBe('merged')
    expect(jsonLdTypes(result.html)).toEqual({ Product: 1 })
    expect(errorsOf(await richResultIssues(result.html))).toEqual([])
  })

  it('passes with 0 errors with hostile text in every review field', async () => {
    const hostile = HOSTILE_STRINGS.map(({ value }, index) =>
      productReview({
        review_id: `hostile-${index}`,
        author_firstname: `A${value}`.slice(0, 90),
        review_content: value,
        translated_review: { en: value },
      }),
    )
    const node = buildProductJsonLd({
      url,
      product: { ...facts, description: HOSTILE_STRINGS.map(({ value }) => value).join(' ') },
      rating,
      reviews: hostile,
      maxReviews: hostile.length,
      logger,
    })
    expect(errorsOf(await richResultIssues(page(node)))).toEqual([])
  })
})
