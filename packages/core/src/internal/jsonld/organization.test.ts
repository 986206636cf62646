import { describe, expect, it, vi } from 'vitest'
import type { BrandRating } from '../../types/published.ts'
import { buildOrganizationJsonLd, SELF_SERVING_REVIEWS_OPT_IN } from './organization.ts'

const url = 'https://shop.example/#organization'
const stats = (average: number, count: number) => ({
  average,
  count_5: count,
  count_4: 0,
  count_3: 0,
  count_2: 0,
  count_1: 0,
})
const rating: Pick<BrandRating, 'one_year' | 'five_year'> = {
  one_year: stats(4.8, 10),
  five_year: stats(4.7, 40),
}
const review = {
  author_firstname: 'Ana',
  author_lastname: 'Lee',
  is_personal_data_disclosed: true,
  publish_date: '2025-01-01T00:00:00Z',
  review_content: 'Friendly staff.',
  review_rate: 5,
}

describe('buildOrganizationJsonLd', () => {
  it('builds an Organization node without star markup', () => {
    expect(buildOrganizationJsonLd({ url, organization: { name: 'Shop' } })).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Organization',
      '@id': url,
      name: 'Shop',
    })
  })

  it('refuses a rating without the self-serving opt-in, naming the field', () => {
    const call = () => buildOrganizationJsonLd({ url, organization: { name: 'Shop' }, rating })
    expect(call).toThrow(expect.objectContaining({ name: 'JsonLdInputError', field: 'rating' }))
    expect(call).toThrow(/self-serving/)
  })

  it('refuses reviews without the self-serving opt-in, naming the field', () => {
    const call = () => buildOrganizationJsonLd({ url, type: 'LocalBusiness', reviews: [review] })
    expect(call).toThrow(expect.objectContaining({ field: 'reviews' }))
  })

  it('refuses an opt-in value other than the spelled-out one', () => {
    const call = () => buildOrganizationJsonLd({ url, rating, selfServingReviews: true as never })
    expect(call).toThrow(expect.objectContaining({ field: 'selfServingReviews' }))
  })

  it('refuses a period without a rating', () => {
    expect(() => buildOrganizationJsonLd({ url, period: 'five_year' })).toThrow(/^period: /)
  })

  it('emits the star markup with the opt-in, and warns that Google ignores it', () => {
    const logger = { warn: vi.fn() }
    const node = buildOrganizationJsonLd({
      url,
      type: 'Store',
      organization: { name: 'Shop' },
      rating,
      reviews: [review],
      selfServingReviews: SELF_SERVING_REVIEWS_OPT_IN,
      logger,
    })
    expect(node).toMatchObject({
      '@type': 'Store',
      aggregateRating: { ratingValue: 4.8, reviewCount: 10, bestRating: 5, worstRating: 1 },
      review: [{ author: { '@type': 'Person', name: 'Ana L.' }, reviewBody: 'Friendly staff.' }],
    })
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('self-serving'))
  })

  it('takes the five-year statistics when asked', () => {
    const node = buildOrganizationJsonLd({
      url,
      rating,
      period: 'five_year',
      selfServingReviews: SELF_SERVING_REVIEWS_OPT_IN,
      logger: { warn: vi.fn() },
    })
    expect(node?.aggregateRating).toMatchObject({ ratingValue: 4.7, reviewCount: 40 })
  })

  it('refuses a type it does not know, naming the field', () => {
    expect(() => buildOrganizationJsonLd({ url, type: 'Product' as never })).toThrow(/^type: /)
  })

  it('refuses organization facts whose @id is another node', () => {
    const organization = { '@id': 'https://other.example/#org', name: 'Shop' } as never
    expect(() => buildOrganizationJsonLd({ url, organization })).toThrow(/^organization\.@id: /)
  })

  it('gives null when there is nothing to say', () => {
    expect(buildOrganizationJsonLd({ url })).toBeNull()
  })
})
