import { describe, expect, it } from 'vitest'
import type { SandboxState } from '../context.ts'
import { HttpError } from '../http-error.ts'
import { Query } from '../query.ts'
import { fakeState as emptyState } from '../testing/fake-state.ts'
import type { ProductReview } from '../types.ts'
import {
  compareValues,
  knownWebsite,
  type LegacyReview,
  legacyCategory,
  legacyLanguage,
  requestedRefs,
  selectReviews,
  toLegacyRating,
  toLegacyReview,
} from './legacy.ts'

const WEBSITE = '0b6f4a52-8a3b-4d7e-9f1c-2d3e4f5a6b7c'

function review(overrides: Partial<ProductReview> = {}): ProductReview {
  return {
    review_id: 'r1',
    author_firstname: 'Ana',
    author_lastname: 'Lee',
    is_personal_data_disclosed: true,
    locale: 'fr-FR',
    review_date: '2025-01-02T10:00:00Z',
    publish_date: '2025-01-03T10:00:00Z',
    order_date: '2025-01-01T10:00:00Z',
    review_content: 'Great',
    review_rate: 5,
    order_reference: 'O1',
    order_id: 'O1',
    product_variation_id: 'SKU-001',
    product_ean: '3000000000017',
    product_upc: '000000000017',
    product_jan: '4900000000017',
    product_sku: 'SKU-001',
    product_mpn: 'MPN-001',
    product_brand: 'Acme',
    product_name: 'Kettle',
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

function fakeState(productIds: string[] = ['SKU-001', 'SKU-002']): SandboxState {
  return emptyState(WEBSITE, {
    products: productIds.map((id) => ({
      product_variation_id: id,
      product_ean: '',
      product_upc: '',
      product_jan: '',
      product_sku: id,
      product_mpn: '',
      product_brand: 'Acme',
      product_name: id,
    })),
  })
}

function legacy(overrides: Partial<ProductReview>): LegacyReview {
  return toLegacyReview(review(overrides), 'http://127.0.0.1:1')
}

function status(fn: () => unknown): { status: number; field: string | undefined } | undefined {
  try {
    fn()
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, field: error.field }
    throw error
  }
  return undefined
}

function params(query: string): Query {
  return new Query(new URL(`http://x/?${query}`), ['ref'])
}

describe('legacyLanguage', () => {
  it('joins language and region with an underscore', () => {
    expect(legacyLanguage('fr-FR')).toBe('fr_FR')
  })

  it('adds the usual region to a bare language', () => {
    expect(['de', 'en', 'cs', 'el'].map(legacyLanguage)).toEqual(['de_DE', 'en_GB', 'cs_CZ', 'el_GR'])
  })
})

describe('legacyCategory', () => {
  it('gives a product the same category every time', () => {
    expect(legacyCategory('SKU-007')).toBe(legacyCategory('SKU-007'))
  })
})

describe('toLegacyReview', () => {
  it('renames the published fields', () => {
    const mapped = legacy({})
    expect({
      id: mapped.id,
      rate: mapped.rate,
      review: mapped.review,
      firstname: mapped.firstname,
      lastname: mapped.lastname,
      product_ref: mapped.product_ref,
      brand: mapped.brand,
      language: mapped.language,
    }).toEqual({
      id: 'r1',
      rate: 5,
      review: 'Great',
      firstname: 'Ana',
      lastname: 'Lee',
      product_ref: 'SKU-001',
      brand: 'Acme',
      language: 'fr_FR',
    })
  })

  it('groups the product identifiers with an empty isbn', () => {
    expect(legacy({}).product_ids).toEqual({
      gtin_ean: '3000000000017',
      gtin_jan: '4900000000017',
      gtin_isbn: '',
      gtin_upc: '000000000017',
      sku: 'SKU-001',
      mpn: 'MPN-001',
    })
  })

  it('makes media paths absolute on the origin', () => {
    const medias = [
      { type: 'IMAGE' as const, small: '/m/s.svg', medium: '/m/m.svg', large: 'https://cdn/l.svg' },
    ]
    expect(legacy({ medias }).medias).toEqual([
      {
        type: 'image',
        data: {
          type: 'image',
          small: 'http://127.0.0.1:1/m/s.svg',
          medium: 'http://127.0.0.1:1/m/m.svg',
          large: 'https://cdn/l.svg',
        },
      },
    ])
  })

  it('keeps date, origin and comment of moderations', () => {
    const moderations = [
      {
        comment: 'Thanks',
        date: '2025-02-01T00:00:00Z',
        origin: 'merchant',
        origin_type: 'moderator' as const,
      },
    ]
    expect(legacy({ moderations }).moderations).toEqual([
      { date: '2025-02-01T00:00:00Z', origin: 'merchant', comment: 'Thanks' },
    ])
  })

  it('marks undisclosed personal data as anonymised', () => {
    expect(legacy({ is_personal_data_disclosed: false }).anonymised_data).toBe(true)
  })

  it('maps compensated and gifted incentivization to their flags', () => {
    const flags = (['compensated', 'gifted', 'none'] as const).map((incentivization) => {
      const r = legacy({ incentivization })
      return [r.compensated_review, r.gifted_review]
    })
    expect(flags).toEqual([
      [true, false],
      [false, true],
      [false, false],
    ])
  })

  it('gives null syndication source and url when there is none', () => {
    const r = legacy({})
    expect([r.syndicated_review_source, r.syndicated_review_source_url]).toEqual([null, null])
  })

  it('keeps the syndication source of a syndicated review', () => {
    const r = legacy({
      syndicated_review: true,
      syndicated_review_source: 'Shop B',
      syndicated_review_source_url: 'https://b',
    })
    expect([r.syndicated_review, r.syndicated_review_source, r.syndicated_review_source_url]).toEqual([
      true,
      'Shop B',
      'https://b',
    ])
  })

  it('shows helpful votes, zero when the review has none', () => {
    expect([
      legacy({ helpful_votes: { helpful: 3, helpless: 1 } }).helping_votes,
      legacy({}).helping_votes,
    ]).toEqual([
      { helpful: 3, helpless: 1 },
      { helpful: 0, helpless: 0 },
    ])
  })
})

describe('toLegacyRating', () => {
  it('counts each rate and rounds the average to two decimals', () => {
    const rates = [5, 4, 4] as const
    expect(toLegacyRating(rates.map((review_rate) => review({ review_rate })))).toEqual({
      average: 4.33,
      nb_total: 3,
      nb_1: 0,
      nb_2: 0,
      nb_3: 0,
      nb_4: 2,
      nb_5: 1,
    })
  })
})

describe('compareValues', () => {
  it('orders null before strings', () => {
    expect(compareValues(null, 'a')).toBeLessThan(0)
  })

  it('orders arrays by length', () => {
    expect(compareValues([1, 1], [2])).toBeGreaterThan(0)
  })

  it('orders objects member by member', () => {
    expect(compareValues({ helpful: 1, helpless: 9 }, { helpful: 2, helpless: 0 })).toBeLessThan(0)
  })
})

describe('selectReviews', () => {
  const reviews = [
    legacy({ review_id: 'a', review_rate: 5, publish_date: '2025-01-01T00:00:00Z' }),
    legacy({ review_id: 'b', review_rate: 3, publish_date: '2025-01-03T00:00:00Z' }),
    legacy({ review_id: 'c', review_rate: 5, publish_date: '2025-01-02T00:00:00Z' }),
    legacy({ review_id: 'd', review_rate: 1, publish_date: '2025-01-04T00:00:00Z' }),
  ]
  const base = { rates: undefined, sortBy: ['publish_date'] as const, descending: true, offset: 0, limit: 10 }
  const ids = (list: LegacyReview[]) => list.map((r) => r.id)

  it('sorts by publish_date descending', () => {
    expect(ids(selectReviews(reviews, base))).toEqual(['d', 'b', 'c', 'a'])
  })

  it('keeps only the requested rates', () => {
    expect(ids(selectReviews(reviews, { ...base, rates: new Set([5, 1]) }))).toEqual(['d', 'c', 'a'])
  })

  it('breaks ties by id ascending whatever the direction', () => {
    expect(ids(selectReviews(reviews, { ...base, sortBy: ['rate'] }))).toEqual(['a', 'c', 'b', 'd'])
  })

  it('applies offset then limit', () => {
    expect(ids(selectReviews(reviews, { ...base, offset: 1, limit: 2 }))).toEqual(['b', 'c'])
  })
})

describe('requestedRefs', () => {
  it('means the whole catalogue when ref is absent', () => {
    expect(requestedRefs(params(''), fakeState())).toEqual(['SKU-001', 'SKU-002'])
  })

  it('decodes each item, so an encoded comma stays inside its reference', () => {
    expect(requestedRefs(params(`ref=${encodeURIComponent('A%2CB,C')}`), fakeState())).toEqual(['A,B', 'C'])
  })

  it('keeps a reference requested twice once', () => {
    expect(requestedRefs(params('ref=A,B,A'), fakeState())).toEqual(['A', 'B'])
  })

  it('rejects a ref given twice', () => {
    expect(status(() => requestedRefs(params('ref=A&ref=B'), fakeState()))).toEqual({
      status: 400,
      field: 'ref',
    })
  })

  it('rejects an empty item', () => {
    expect(status(() => requestedRefs(params('ref=A,,B'), fakeState()))).toEqual({
      status: 400,
      field: 'ref',
    })
  })
})

describe('knownWebsite', () => {
  it('rejects a website_id that is no uuid', () => {
    expect(status(() => knownWebsite('abc', fakeState()))).toEqual({ status: 400, field: 'website_id' })
  })

  it('answers 404 for another website', () => {
    expect(status(() => knownWebsite('11111111-2222-4333-8444-555555555555', fakeState()))).toEqual({
      status: 404,
      field: 'website_id',
    })
  })
})
