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

  it('sends exactly the fields the island draws', () => {
    expect(Object.keys(publicReview(productReview(), 'en')).sort()).toEqual([
      'author_firstname',
      'author_lastname',
      'extras',
      'incentivization',
      'is_personal_data_disclosed',
      'is_verified',
      'locale',
      'medias',
      'moderations',
      'review_content',
      'review_date',
      'review_id',
      'review_rate',
      'syndicated_review',
      'syndicated_review_source',
      'syndicated_review_source_url',
      'translated_review',
    ])
  })

  it.each([
    'order_date',
    'order_reference',
    'order_id',
    'publish_date',
    'product_ean',
    'product_upc',
    'product_mpn',
    'product_jan',
    'product_sku',
    'product_variation_id',
    'product_brand',
    'product_name',
  ])('leaves out %s', (field) => {
    expect(publicReview(productReview({ product_ean: '3700000000001' }), 'en')).not.toHaveProperty(field)
  })

  it('leaves out a field the API may add later', () => {
    const review = { ...productReview(), customer_email: 'marie@example.com', order_total: 120 }
    const sent = JSON.stringify(publicReview(review, 'en'))
    expect(sent).not.toContain('customer_email')
    expect(sent).not.toContain('marie@example.com')
    expect(sent).not.toContain('order_total')
  })

  it('keeps of each image its type and size variants alone', () => {
    const media = {
      type: 'IMAGE',
      small: 'https://i/s',
      medium: 'https://i/m',
      large: 'https://i/l',
      uploader_ip: '1.2.3.4',
    }
    expect(publicReview(productReview({ medias: [media] }), 'en').medias).toEqual([
      { type: 'IMAGE', small: 'https://i/s', medium: 'https://i/m', large: 'https://i/l' },
    ])
  })

  it('keeps of each merchant reply its text and date alone', () => {
    const reply = {
      comment: 'Merci',
      date: '2026-01-02T00:00:00Z',
      origin: 'jean@shop.example',
      origin_type: 'moderator',
    }
    expect(publicReview(productReview({ moderations: [reply] }), 'en').moderations).toEqual([
      { comment: 'Merci', date: '2026-01-02T00:00:00Z' },
    ])
  })

  it('keeps of each criterion its names, type and value alone, and only the types the components show', () => {
    const extras = {
      quality: { display_name: 'Quality', label: 'quality', type: 'I1', value: 4, internal_note: 'x' },
      fit: { display_name: 'Fit', label: 'fit', type: 'S', value: 'True to size' },
      other: { display_name: 'Other', label: 'other', type: 'X9', value: 'hidden' },
    } as unknown as ProductReview['extras']
    expect(publicReview(productReview({ extras }), 'en').extras).toEqual({
      quality: { display_name: 'Quality', label: 'quality', type: 'I1', value: 4 },
      fit: { display_name: 'Fit', label: 'fit', type: 'S', value: 'True to size' },
    })
  })

  it('copies no criterion named __proto__ and pollutes no prototype', () => {
    const extras = JSON.parse(
      '{"__proto__":{"display_name":"P","label":"p","type":"S","value":"polluted"},"constructor":{"display_name":"C","label":"c","type":"S","value":"c"}}',
    ) as ProductReview['extras']
    const sent = publicReview(productReview({ extras }), 'en')
    expect(Object.keys(sent.extras)).toEqual([])
    expect(Object.getPrototypeOf(sent.extras)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).value).toBeUndefined()
  })

  it('sends a value of another type than the components expect as empty', () => {
    const review = {
      ...productReview(),
      review_content: { html: '<b>x</b>' },
      author_firstname: 42,
      is_verified: 'yes',
    } as unknown as ProductReview
    const sent = publicReview(review, 'en')
    expect([sent.review_content, sent.author_firstname, sent.is_verified]).toEqual(['', '', false])
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

  it('sends no translation of a reply that has none in the page language', () => {
    const reply = {
      comment: 'Merci',
      date: '2026-01-02T00:00:00Z',
      origin: 'm',
      origin_type: 'moderator',
      translated_comment: { de: 'Danke' },
    }
    expect(publicReview(productReview({ moderations: [reply] }), 'en').moderations[0]).not.toHaveProperty(
      'translated_comment',
    )
  })
})
