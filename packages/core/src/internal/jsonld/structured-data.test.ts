import { describe, expect, it, vi } from 'vitest'
import type { StructuredData } from '../../types/published.ts'
import { buildProductJsonLd } from './product.ts'
import { fromStructuredData } from './structured-data.ts'
import { StructuredDataError } from './structured-data-error.ts'

const url = 'https://shop.example/products/kettle'
const logger = { warn: vi.fn() }

function answer(): StructuredData {
  return {
    ratings: {
      '@context': 'https://schema.org',
      aggregateRating: {
        '@type': 'AggregateRating',
        ratingValue: 4.56,
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
          reviewBody: 'Boils fast.',
          datePublished: '2025-03-02T10:00:00Z',
          reviewRating: { '@type': 'Rating', ratingValue: 5, bestRating: 5, worstRating: 1 },
          author: { '@type': 'Person', name: 'Marie D.' },
          itemReviewed: { '@id': url },
        },
        {
          '@type': 'Review',
          reviewBody: 'Loud.',
          datePublished: '2025-03-01T10:00:00Z',
          reviewRating: { '@type': 'Rating', ratingValue: 4, bestRating: 5, worstRating: 1 },
          author: { '@type': 'Person', name: 'Jan' },
        },
      ],
    },
  }
}

describe('fromStructuredData', () => {
  it('gives the same node as the local builder for the same reviews', () => {
    const local = buildProductJsonLd({
      url,
      product: { name: 'Kettle' },
      rating: { average: 4.5625, count_total: 2 },
      reviews: [
        {
          author_firstname: 'Jan',
          author_lastname: 'Novák',
          is_personal_data_disclosed: false,
          publish_date: '2025-03-01T10:00:00Z',
          review_content: 'Loud.',
          review_rate: 4,
        },
        {
          author_firstname: 'Marie',
          author_lastname: 'Dupont',
          is_personal_data_disclosed: true,
          publish_date: '2025-03-02T10:00:00Z',
          review_content: 'Boils fast.',
          review_rate: 5,
        },
      ],
      logger,
    })
    expect(fromStructuredData(answer(), { url, product: { name: 'Kettle' }, logger })).toEqual(local)
  })

  it('nests the blocks in one Product node without itemReviewed', () => {
    const node = fromStructuredData(answer(), { url, logger })
    expect(JSON.stringify(node)).not.toContain('itemReviewed')
    expect(node).toMatchObject({ '@type': 'Product', '@id': url })
  })

  function summaryAnswer(): StructuredData {
    return {
      ratings: answer().ratings,
      reviewSummary: {
        '@context': 'https://schema.org',
        review: {
          '@type': 'Review',
          reviewBody: 'Customers like it.',
          datePublished: '2025-04-01T00:00:00Z',
          author: { '@type': 'Organization', name: 'Shop Inc.' },
        },
      },
    }
  }

  it('leaves the review summary block out by default', () => {
    const node = fromStructuredData(summaryAnswer(), { url, logger })
    expect(node).toHaveProperty('aggregateRating')
    expect(node).not.toHaveProperty('review')
  })

  it('appends the review summary block as a review by the organization with reviewSummaryAuthor', () => {
    expect(
      fromStructuredData(summaryAnswer(), { url, logger, reviewSummaryAuthor: 'Shop Inc.' })?.review,
    ).toEqual([
      {
        '@type': 'Review',
        author: { '@type': 'Organization', name: 'Shop Inc.' },
        datePublished: '2025-04-01T00:00:00Z',
        reviewBody: 'Customers like it.',
      },
    ])
  })

  it('gives null for an answer without blocks', () => {
    expect(fromStructuredData({}, { url, logger })).toBeNull()
  })

  it('leaves out an aggregate of zero reviews', () => {
    const data = answer()
    if (data.ratings) data.ratings.aggregateRating.reviewCount = 0
    expect(fromStructuredData(data, { url, logger })).not.toHaveProperty('aggregateRating')
  })

  it('leaves out a review without an author name', () => {
    const data = answer()
    data.reviews?.review.forEach((review) => {
      review.author.name = ''
    })
    expect(fromStructuredData(data, { url, logger })).not.toHaveProperty('review')
  })

  it('throws naming the block when itemReviewed is another page', () => {
    const call = () => fromStructuredData(answer(), { url: 'https://shop.example/other', logger })
    expect(call).toThrow(StructuredDataError)
    expect(call).toThrow(/^ratings: aggregateRating\.itemReviewed\.@id/)
  })

  it('throws naming the block and the member when a member has the wrong type', () => {
    const data = answer() as unknown as { reviews: { review: Array<{ reviewRating: unknown }> } }
    const [first] = data.reviews.review
    if (first) first.reviewRating = { ratingValue: '5' }
    const call = () => fromStructuredData(data as unknown as StructuredData, { url, logger })
    expect(call).toThrow('reviews: review[0].reviewRating.ratingValue must be a number')
  })

  it('throws naming url when it is not absolute', () => {
    expect(() => fromStructuredData(answer(), { url: 'kettle', logger })).toThrow(/^url: /)
  })
})
