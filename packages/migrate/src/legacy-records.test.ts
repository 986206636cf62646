import type { LegacyProductReview } from '@verified-reviews/core'
import { describe, expect, it } from 'vitest'
import {
  fromLegacyRating,
  fromLegacyRatingsResponse,
  fromLegacyReview,
  fromLegacyReviewsResponse,
  LEGACY_REVIEW_NOTES,
} from './legacy-records.ts'

function legacyReview(overrides: Partial<LegacyProductReview> = {}): LegacyProductReview {
  return {
    id: 'r1',
    rate: 4,
    review: 'Solid kettle',
    order_date: '2025-01-01T10:00:00Z',
    review_date: '2025-01-02T10:00:00Z',
    publish_date: '2025-01-03T10:00:00Z',
    firstname: 'Ana',
    lastname: 'Lee',
    language: 'fr_FR',
    product_ref: 'SKU-001',
    brand: 'Acme',
    category: 'Kitchen',
    product_ids: {
      gtin_ean: '3000000000017',
      gtin_jan: '4900000000017',
      gtin_isbn: '978000000001',
      gtin_upc: '000000000017',
      sku: 'SKU-001',
      mpn: 'MPN-001',
    },
    moderations: [],
    medias: [],
    helping_votes: { helpful: 3, helpless: 1 },
    hide_exchange: false,
    anonymised_data: false,
    pseudonymised_data: false,
    compensated_review: false,
    rewarded_review: false,
    gifted_review: false,
    syndicated_review: false,
    syndicated_review_source: null,
    syndicated_review_source_url: null,
    ...overrides,
  }
}

describe('fromLegacyReview', () => {
  it('renames the review fields as the spec lists them', () => {
    const review = fromLegacyReview(legacyReview())
    expect(review).toMatchObject({
      review_id: 'r1',
      review_rate: 4,
      review_content: 'Solid kettle',
      product_variation_id: 'SKU-001',
      author_firstname: 'Ana',
      author_lastname: 'Lee',
      locale: 'fr_FR',
      product_brand: 'Acme',
      order_date: '2025-01-01T10:00:00Z',
      review_date: '2025-01-02T10:00:00Z',
      publish_date: '2025-01-03T10:00:00Z',
    })
  })

  it('spreads product_ids over the product identifier fields', () => {
    expect(fromLegacyReview(legacyReview())).toMatchObject({
      product_ean: '3000000000017',
      product_upc: '000000000017',
      product_jan: '4900000000017',
      product_sku: 'SKU-001',
      product_mpn: 'MPN-001',
    })
  })

  it('reads the incentive flags as incentivization', () => {
    const of = (flags: Partial<LegacyProductReview>) => fromLegacyReview(legacyReview(flags)).incentivization
    expect([
      of({ gifted_review: true }),
      of({ compensated_review: true }),
      of({ rewarded_review: true }),
      of({}),
    ]).toEqual(['gifted', 'compensated', 'compensated', 'none'])
  })

  it('turns missing syndication sources into empty strings', () => {
    const review = fromLegacyReview(
      legacyReview({ syndicated_review: true, syndicated_review_source: 'Shop B' }),
    )
    expect(review).toMatchObject({
      syndicated_review: true,
      syndicated_review_source: 'Shop B',
      syndicated_review_source_url: '',
    })
  })

  it('marks personal data as undisclosed when the review was anonymised or pseudonymised', () => {
    const disclosed = (flags: Partial<LegacyProductReview>) =>
      fromLegacyReview(legacyReview(flags)).is_personal_data_disclosed
    expect([
      disclosed({}),
      disclosed({ anonymised_data: true }),
      disclosed({ pseudonymised_data: true }),
    ]).toEqual([true, false, false])
  })

  it('keeps the size variants of a media', () => {
    const medias = [
      { type: 'image', data: { type: 'image', small: 's.png', medium: 'm.png', large: 'l.png' } },
    ]
    expect(fromLegacyReview(legacyReview({ medias })).medias).toEqual([
      { type: 'IMAGE', small: 's.png', medium: 'm.png', large: 'l.png' },
    ])
  })

  it('uses the single URL of a media for every size', () => {
    const medias = [{ type: 'image', data: { type: 'image', url: 'a.png' } }]
    expect(fromLegacyReview(legacyReview({ medias })).medias).toEqual([
      { type: 'IMAGE', small: 'a.png', medium: 'a.png', large: 'a.png' },
    ])
  })

  it('drops a media that has no URL', () => {
    const medias = [{ type: 'video', data: { type: 'video', id: 42 } }]
    expect(fromLegacyReview(legacyReview({ medias })).medias).toEqual([])
  })

  it('keeps moderations, marked as written by a moderator', () => {
    const moderations = [{ date: '2025-02-01T00:00:00Z', origin: 'merchant', comment: 'Thanks' }]
    expect(fromLegacyReview(legacyReview({ moderations })).moderations).toEqual([
      { comment: 'Thanks', date: '2025-02-01T00:00:00Z', origin: 'merchant', origin_type: 'moderator' },
    ])
  })

  it('claims no verification that the legacy API does not state', () => {
    expect(fromLegacyReview(legacyReview()).is_verified).toBe(false)
  })

  it('documents every field it fills or drops', () => {
    const noted = LEGACY_REVIEW_NOTES.flatMap((n) => n.field.split(', '))
    for (const field of [
      'category',
      'helping_votes',
      'is_verified',
      'product_name',
      'translated_review',
      'extras',
    ]) {
      expect(noted).toContain(field)
    }
  })
})

describe('fromLegacyReviewsResponse', () => {
  it('flattens the reviews of every reference in answer order and skips null references', () => {
    const flat = fromLegacyReviewsResponse({
      data: {
        'SKU-002': [legacyReview({ id: 'b1', product_ref: 'SKU-002' })],
        'SKU-404': null,
        'SKU-001': [legacyReview({ id: 'a1' }), legacyReview({ id: 'a2' })],
      },
    })
    expect(flat.map((r) => r.review_id)).toEqual(['b1', 'a1', 'a2'])
  })
})

describe('fromLegacyRating', () => {
  it('renames the counts and keys the rating by its reference', () => {
    const rating = { average: 4.2, nb_total: 10, nb_1: 0, nb_2: 1, nb_3: 1, nb_4: 3, nb_5: 5 }
    expect(fromLegacyRating('SKU-1', rating)).toEqual({
      product_variation_id: 'SKU-1',
      product_ean: '',
      average: 4.2,
      count_total: 10,
      count_5: 5,
      count_4: 3,
      count_3: 1,
      count_2: 1,
      count_1: 0,
      extras: [],
    })
  })
})

describe('fromLegacyRatingsResponse', () => {
  it('lists the references that have a rating and leaves null ones out', () => {
    const rating = { average: 5, nb_total: 1, nb_1: 0, nb_2: 0, nb_3: 0, nb_4: 0, nb_5: 1 }
    const list = fromLegacyRatingsResponse({ data: { B: rating, C: null, A: rating } })
    expect(list.map((r) => r.product_variation_id)).toEqual(['B', 'A'])
  })
})
