import { afterEach, describe, expect, it, vi } from 'vitest'
import { VerifiedReviewsError } from '../base/errors.ts'
import { JsonLdInputError } from './json-ld-input-error.ts'
import { buildProductJsonLd } from './product.ts'
import type { ReviewData } from './review-markup.ts'

const url = 'https://shop.example/products/kettle'

function review(overrides: Partial<ReviewData> = {}): ReviewData {
  return {
    author_firstname: 'Marie',
    author_lastname: 'Dupont',
    is_personal_data_disclosed: true,
    publish_date: '2025-03-01T10:00:00Z',
    review_content: 'Boils fast.',
    review_rate: 5,
    ...overrides,
  }
}

const silent = () => ({ warn: vi.fn() })

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('buildProductJsonLd', () => {
  it('builds one Product node with the page URL as @id', () => {
    const node = buildProductJsonLd({
      url,
      product: { name: 'Kettle' },
      reviews: [review()],
      logger: silent(),
    })
    expect(node).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      '@id': url,
      name: 'Kettle',
    })
  })

  it('gives no bare Product: null for product facts without offers, a rating or a review', () => {
    const product = { name: 'Kettle', sku: 'K-1', brand: { '@type': 'Brand' as const, name: 'Cala' } }
    expect(buildProductJsonLd({ url, product, rating: { average: 0, count_total: 0 } })).toBeNull()
  })

  it('keeps the page facts of a product without reviews when they have offers', () => {
    const offers = { '@type': 'Offer' as const, price: 49, priceCurrency: 'EUR' }
    const node = buildProductJsonLd({
      url,
      product: { name: 'Kettle', image: 'https://shop.example/k.jpg', offers },
    })
    expect(node).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Product',
      '@id': url,
      name: 'Kettle',
      image: 'https://shop.example/k.jpg',
      offers,
    })
  })

  it('marks up the aggregate rating with count and both bounds', () => {
    const node = buildProductJsonLd({ url, rating: { average: 4.5625, count_total: 128 }, logger: silent() })
    expect(node?.aggregateRating).toEqual({
      '@type': 'AggregateRating',
      ratingValue: 4.6,
      reviewCount: 128,
      bestRating: 5,
      worstRating: 1,
    })
  })

  it('rounds the rating to the decimals asked for', () => {
    const node = buildProductJsonLd({
      url,
      rating: { average: 4.5625, count_total: 3 },
      ratingDecimals: 2,
      logger: silent(),
    })
    expect(node?.aggregateRating).toMatchObject({ ratingValue: 4.56 })
  })

  it('rounds half away from zero without binary artefacts', () => {
    const node = buildProductJsonLd({ url, rating: { average: 4.45, count_total: 2 }, logger: silent() })
    expect(node?.aggregateRating).toMatchObject({ ratingValue: 4.5 })
  })

  it('leaves out an aggregate of zero reviews', () => {
    const node = buildProductJsonLd({
      url,
      product: { name: 'Kettle' },
      rating: { average: 0, count_total: 0 },
      reviews: [review()],
    })
    expect(node).not.toHaveProperty('aggregateRating')
  })

  it('gives null when there is nothing to mark up', () => {
    expect(buildProductJsonLd({ url, rating: { average: 0, count_total: 0 }, reviews: [] })).toBeNull()
  })

  it('leaves out an aggregate whose rating is outside 1 to 5, with a warning', () => {
    const logger = silent()
    const node = buildProductJsonLd({
      url,
      product: { name: 'K' },
      rating: { average: 7, count_total: 2 },
      reviews: [review()],
      logger,
    })
    expect(node).not.toHaveProperty('aggregateRating')
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('ratingValue 7'))
  })

  it('marks up a review with author, date, original text and rating', () => {
    const node = buildProductJsonLd({ url, reviews: [review()], logger: silent() })
    expect(node?.review).toEqual([
      {
        '@type': 'Review',
        author: { '@type': 'Person', name: 'Marie D.' },
        datePublished: '2025-03-01T10:00:00Z',
        reviewBody: 'Boils fast.',
        reviewRating: { '@type': 'Rating', ratingValue: 5, bestRating: 5, worstRating: 1 },
      },
    ])
  })

  it('nests reviews without itemReviewed, which nesting implies', () => {
    const node = buildProductJsonLd({ url, reviews: [review()], logger: silent() })
    expect(node?.review).toEqual([expect.not.objectContaining({ itemReviewed: expect.anything() })])
  })

  it('uses the first name alone for an author who did not share personal data', () => {
    const node = buildProductJsonLd({
      url,
      reviews: [review({ is_personal_data_disclosed: false })],
      logger: silent(),
    })
    expect(node?.review).toEqual([expect.objectContaining({ author: { '@type': 'Person', name: 'Marie' } })])
  })

  it('leaves out a review without an author name and warns once', () => {
    const logger = silent()
    const reviews = [review({ author_firstname: '' }), review({ author_firstname: ' ' })]
    const node = buildProductJsonLd({
      url,
      product: { name: 'Kettle' },
      rating: { average: 4, count_total: 2 },
      reviews,
      logger,
    })
    expect(node).not.toHaveProperty('review')
    expect(logger.warn).toHaveBeenCalledTimes(1)
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('no author name'))
  })

  it('leaves out a review whose author name is 100 characters or longer', () => {
    const node = buildProductJsonLd({
      url,
      reviews: [review({ author_firstname: 'A'.repeat(100) })],
      logger: silent(),
    })
    expect(node).toBeNull()
  })

  it('leaves out a review whose date is not a date', () => {
    const node = buildProductJsonLd({
      url,
      reviews: [review({ publish_date: 'yesterday' })],
      logger: silent(),
    })
    expect(node).toBeNull()
  })

  it('warns nothing in production', () => {
    vi.stubEnv('NODE_ENV', 'production')
    const logger = silent()
    buildProductJsonLd({ url, reviews: [review({ author_firstname: '' })], logger })
    expect(logger.warn).not.toHaveBeenCalled()
  })

  it('marks up the newest reviews first, up to maxReviews', () => {
    const reviews = [1, 2, 3, 4].map((day) => review({ publish_date: `2025-03-0${day}T00:00:00Z` }))
    const node = buildProductJsonLd({ url, reviews, maxReviews: 2, logger: silent() })
    expect(node?.review).toEqual([
      expect.objectContaining({ datePublished: '2025-03-04T00:00:00Z' }),
      expect.objectContaining({ datePublished: '2025-03-03T00:00:00Z' }),
    ])
  })

  it('marks up five reviews by default, as the structured-datas operation does', () => {
    const reviews = Array.from({ length: 8 }, (_, day) =>
      review({ publish_date: `2025-03-1${day}T00:00:00Z` }),
    )
    expect(buildProductJsonLd({ url, reviews, logger: silent() })?.review).toHaveLength(5)
  })

  it('fills maxReviews with valid reviews when some are left out', () => {
    const reviews = [review({ author_firstname: '' }), review({ review_content: 'kept' })]
    const node = buildProductJsonLd({ url, reviews, maxReviews: 1, logger: silent() })
    expect(node?.review).toEqual([expect.objectContaining({ reviewBody: 'kept' })])
  })

  it("merges the page's product facts into the same node", () => {
    const node = buildProductJsonLd({
      url,
      product: { '@id': url, name: 'Kettle', sku: 'K-1', gtin13: '4006381333931' },
      rating: { average: 4, count_total: 1 },
      logger: silent(),
    })
    expect(node).toMatchObject({ '@type': 'Product', '@id': url, name: 'Kettle', sku: 'K-1' })
    expect(node).toHaveProperty('aggregateRating')
  })

  it('warns when the Product node has no name', () => {
    const logger = silent()
    buildProductJsonLd({ url, rating: { average: 4, count_total: 1 }, logger })
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('no name'))
  })

  it('appends the AI summary as a review by the organization', () => {
    const node = buildProductJsonLd({
      url,
      reviewSummary: { content: 'Customers like it.', last_updated_at: '2025-04-01T00:00:00Z' },
      reviewSummaryAuthor: 'Shop Inc.',
      logger: silent(),
    })
    expect(node?.review).toEqual([
      {
        '@type': 'Review',
        author: { '@type': 'Organization', name: 'Shop Inc.' },
        datePublished: '2025-04-01T00:00:00Z',
        reviewBody: 'Customers like it.',
      },
    ])
  })

  it('leaves the AI summary out unless reviewSummaryAuthor opts in', () => {
    const node = buildProductJsonLd({
      url,
      rating: { average: 4, count_total: 1 },
      reviewSummary: { content: 'Customers like it.', last_updated_at: '2025-04-01T00:00:00Z' },
      logger: silent(),
    })
    expect(node).not.toHaveProperty('review')
  })

  it('throws naming reviewSummaryAuthor when it names nobody', () => {
    const call = () =>
      buildProductJsonLd({
        url,
        reviewSummary: { content: 'x', last_updated_at: '2025-04-01T00:00:00Z' },
        reviewSummaryAuthor: ' ',
      })
    expect(call).toThrow(expect.objectContaining({ name: 'JsonLdInputError', field: 'reviewSummaryAuthor' }))
  })

  it('leaves syndicated reviews out of the review items by default', () => {
    const reviews = [
      review({ review_content: 'shared', syndicated_review: true, publish_date: '2025-03-02T00:00:00Z' }),
      review({ review_content: 'own' }),
    ]
    const node = buildProductJsonLd({
      url,
      rating: { average: 5, count_total: 2 },
      reviews,
      logger: silent(),
    })
    expect(node?.review).toEqual([expect.objectContaining({ reviewBody: 'own' })])
    expect(node?.aggregateRating).toMatchObject({ reviewCount: 2 })
  })

  it('marks up syndicated reviews when syndicatedReviews opts in', () => {
    const reviews = [review({ review_content: 'shared', syndicated_review: true })]
    const node = buildProductJsonLd({ url, reviews, syndicatedReviews: true, logger: silent() })
    expect(node?.review).toEqual([expect.objectContaining({ reviewBody: 'shared' })])
  })

  it('marks up the original text with the language of its locale', () => {
    const node = buildProductJsonLd({
      url,
      reviews: [review({ locale: 'fr_FR', review_content: 'Rapide.', translated_review: { en: 'Fast.' } })],
      logger: silent(),
    })
    expect(node?.review?.[0]).toMatchObject({ reviewBody: 'Rapide.', inLanguage: 'fr' })
  })

  it('marks up the translation a page in another language shows, with its language', () => {
    const node = buildProductJsonLd({
      url,
      locale: 'en-GB',
      reviews: [review({ locale: 'fr_FR', review_content: 'Rapide.', translated_review: { en: 'Fast.' } })],
      logger: silent(),
    })
    expect(node?.review?.[0]).toMatchObject({ reviewBody: 'Fast.', inLanguage: 'en' })
  })

  it('marks up the original on a page in its own language, as the page shows it', () => {
    const node = buildProductJsonLd({
      url,
      locale: 'fr',
      reviews: [review({ locale: 'fr_FR', review_content: 'Rapide.', translated_review: { fr: 'Vite.' } })],
      logger: silent(),
    })
    expect(node?.review?.[0]).toMatchObject({ reviewBody: 'Rapide.', inLanguage: 'fr' })
  })

  it('throws naming url when it is not absolute', () => {
    expect(() => buildProductJsonLd({ url: '/products/kettle' })).toThrow(JsonLdInputError)
    expect(() => buildProductJsonLd({ url: '/products/kettle' })).toThrow(/^url: /)
  })

  it("throws naming product.@id when the page's node is another product", () => {
    const call = () =>
      buildProductJsonLd({ url, product: { '@id': 'https://shop.example/other', name: 'x' } })
    expect(call).toThrow(expect.objectContaining({ field: 'product.@id' }))
  })

  it('throws naming product.aggregateRating when the page brings its own', () => {
    const product = { name: 'x', aggregateRating: { '@type': 'AggregateRating' } } as never
    expect(() => buildProductJsonLd({ url, product })).toThrow(/^product\.aggregateRating: /)
  })

  it('throws an error rooted in VerifiedReviewsError, as every error of the package', () => {
    expect(() => buildProductJsonLd({ url: 'nope' })).toThrow(VerifiedReviewsError)
  })

  it('puts the review markup on a ProductGroup, each variation keeping its own facts', () => {
    const offers = { '@type': 'Offer' as const, price: 89, priceCurrency: 'EUR' }
    const node = buildProductJsonLd({
      url,
      product: {
        '@type': 'ProductGroup',
        name: 'Parka',
        productGroupID: 'PARKA',
        variesBy: 'https://schema.org/color',
        hasVariant: [
          { sku: 'P-NAVY', color: 'Navy', offers },
          { sku: 'P-SAND', color: 'Sand', offers, inProductGroupWithID: 'PARKA' },
        ],
      },
      rating: { average: 4.2, count_total: 9 },
      logger: silent(),
    })
    expect(node).toMatchObject({
      '@type': 'ProductGroup',
      '@id': url,
      productGroupID: 'PARKA',
      aggregateRating: { reviewCount: 9 },
      hasVariant: [
        { '@type': 'Product', sku: 'P-NAVY', color: 'Navy', inProductGroupWithID: 'PARKA', offers },
        { '@type': 'Product', sku: 'P-SAND', color: 'Sand', inProductGroupWithID: 'PARKA', offers },
      ],
    })
    expect(node && 'hasVariant' in node ? node.hasVariant : undefined).toEqual([
      expect.not.objectContaining({ aggregateRating: expect.anything() }),
      expect.not.objectContaining({ aggregateRating: expect.anything() }),
    ])
  })

  it('throws naming product.productGroupID when a group has none', () => {
    const product = { '@type': 'ProductGroup', name: 'Parka', hasVariant: [{ sku: 'P' }] } as never
    expect(() => buildProductJsonLd({ url, product })).toThrow(/^product\.productGroupID: /)
  })

  it('throws naming the variation that brings review markup of its own', () => {
    const product = {
      '@type': 'ProductGroup',
      productGroupID: 'G',
      hasVariant: [{ sku: 'A' }, { sku: 'B', review: [] }],
    } as never
    expect(() => buildProductJsonLd({ url, product })).toThrow(/^product\.hasVariant\[1\]\.review: /)
  })

  it('throws naming maxReviews when it is not a whole number', () => {
    expect(() => buildProductJsonLd({ url, maxReviews: 1.5 })).toThrow(/^maxReviews: /)
  })
})
