import { describe, expect, it } from 'vitest'
import type { ProductReview } from '../../types/published.ts'
import { publicReview } from './public-review.ts'

function productReview(overrides: Partial<ProductReview> = {}): ProductReview {
  return {
    review_id: 'r-1',
    author_firstname: 'Marie',
    author_lastname: 'Dupont',
    is_personal_data_disclosed: true,
    locale: 'fr_FR',
    review_date: '2026-01-01T10:00:00Z',
    publish_date: '2026-01-02T10:00:00Z',
    order_date: '2025-12-20T10:00:00Z',
    review_content: 'Très bien',
    review_rate: 5,
    order_reference: 'ORDER-1',
    order_id: '1',
    product_variation_id: 'SKU-001',
    product_ean: '',
    product_upc: '',
    product_jan: '',
    product_sku: 'SKU-001',
    product_mpn: '',
    product_brand: 'Maison',
    product_name: 'Mug',
    is_verified: true,
    medias: [],
    incentivization: 'none',
    syndicated_review: false,
    syndicated_review_source: '',
    syndicated_review_source_url: '',
    translated_review: {},
    moderations: [],
    extras: {},
    ...overrides,
  }
}

describe('publicReview', () => {
  it('keeps the translation of the page language alone', () => {
    const review = productReview({ translated_review: { en: 'Good', fr: 'Bien', de: 'Gut' } })
    expect(publicReview(review, 'fr').translated_review).toEqual({ fr: 'Bien' })
  })

  it('keeps the initial of the last name, as the components show it', () => {
    const review = productReview({ author_lastname: 'Émile', is_personal_data_disclosed: true })
    expect(publicReview(review, 'en').author_lastname).toBe('É')
  })

  it('drops the last name of an author who did not disclose personal data', () => {
    const review = productReview({ author_lastname: 'Dupont', is_personal_data_disclosed: false })
    expect(publicReview(review, 'en').author_lastname).toBe('')
  })

  it('empties the order reference and id', () => {
    const review = publicReview(productReview({ order_reference: 'ORDER-1', order_id: '42' }), 'en')
    expect([review.order_reference, review.order_id]).toEqual(['', ''])
  })

  it('keeps the translation of the page language alone in merchant replies', () => {
    const review = productReview({
      moderations: [
        {
          comment: 'Merci',
          date: '2026-01-02T00:00:00Z',
          origin: 'merchant',
          origin_type: 'moderator',
          translated_comment: { en: 'Thanks', fr: 'Merci' },
        },
      ],
    })
    expect(publicReview(review, 'en').moderations[0]?.translated_comment).toEqual({ en: 'Thanks' })
  })
})
