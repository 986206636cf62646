import { describe, expect, it } from 'vitest'
import type { SandboxState } from '../context.ts'
import { HttpError } from '../http-error.ts'
import { fakeState as emptyState } from '../testing/fake-state.ts'
import type { BrandReview } from '../types.ts'
import {
  brandFile,
  genesisAggregate,
  genesisToken,
  isValidGenesisToken,
  orderReviews,
  rateFilter,
  shopsFile,
  toGenesisBrandReview,
} from './genesis.ts'

const WEBSITE = '0b6f4a52-8a3b-4d7e-9f1c-2d3e4f5a6b7c'
const NOW = Date.parse('2025-06-15T12:00:00Z')

function brandReview(overrides: Partial<BrandReview> = {}): BrandReview {
  return {
    review_id: 'b1',
    order_reference: 'O1',
    shop_key: '',
    review_content: 'Fine shop',
    author_firstname: 'Ana',
    author_lastname: 'Lee',
    locale: 'de-DE',
    website_id: WEBSITE,
    review_rate: 4,
    incentivization: 'none',
    is_verified: true,
    is_personal_data_disclosed: true,
    order_date: '2025-01-01T00:00:00Z',
    review_date: '2025-01-02T00:00:00Z',
    publish_date: '2025-01-03T00:00:00Z',
    moderations: [],
    extras: {},
    ...overrides,
  }
}

function fakeState(brandReviews: BrandReview[]): SandboxState {
  return emptyState(WEBSITE, {
    brandReviews,
    shops: [
      { shop_key: 'paris', name: 'Paris; Rivoli', certificate_url: 'https://cert/paris' },
      { shop_key: 'lyon', name: 'Lyon', certificate_url: 'https://cert/lyon' },
    ],
  })
}

function error(fn: () => unknown): { status: number; field: string | undefined } | undefined {
  try {
    fn()
  } catch (e) {
    if (e instanceof HttpError) return { status: e.status, field: e.field }
    throw e
  }
  return undefined
}

describe('genesisToken', () => {
  it('is the lowercase sha256 hex of idWebsite, secret and day', () => {
    expect(genesisToken('w', 's', '2025-06-15')).toBe(
      '94585ce9bfa817dc49888a1fc4f2631f3a23edcf84232a59cab76db56eeb279e',
    )
  })
})

describe('isValidGenesisToken', () => {
  const token = (day: string) => genesisToken(WEBSITE, 'g', day)

  it('accepts the tokens of yesterday, today and tomorrow', () => {
    expect(
      ['2025-06-14', '2025-06-15', '2025-06-16'].map((day) =>
        isValidGenesisToken(token(day), WEBSITE, 'g', NOW),
      ),
    ).toEqual([true, true, true])
  })

  it('refuses the token of two days ago', () => {
    expect(isValidGenesisToken(token('2025-06-13'), WEBSITE, 'g', NOW)).toBe(false)
  })

  it('refuses a token made with another secret', () => {
    expect(isValidGenesisToken(genesisToken(WEBSITE, 'other', '2025-06-15'), WEBSITE, 'g', NOW)).toBe(false)
  })

  it('refuses the uppercase form of a valid token', () => {
    expect(isValidGenesisToken(token('2025-06-15').toUpperCase(), WEBSITE, 'g', NOW)).toBe(false)
  })
})

describe('rateFilter', () => {
  it('is absent when field, sign and compare are all absent', () => {
    expect(rateFilter(undefined, undefined, undefined)).toBeUndefined()
  })

  it('reads a compare given as a string', () => {
    expect(rateFilter('rate', '>=', '4')).toEqual({ sign: '>=', compare: 4 })
  })

  it('names the missing member when only some are given', () => {
    expect(error(() => rateFilter('rate', '>=', undefined))).toEqual({ status: 400, field: 'compare' })
  })

  it('refuses a field other than rate', () => {
    expect(error(() => rateFilter('date', '=', '4'))).toEqual({ status: 400, field: 'field' })
  })

  it('refuses an unknown sign', () => {
    expect(error(() => rateFilter('rate', '=>', '4'))).toEqual({ status: 400, field: 'sign' })
  })

  it('refuses a compare outside 1 to 5', () => {
    expect(error(() => rateFilter('rate', '=', 6))).toEqual({ status: 400, field: 'compare' })
  })
})

describe('orderReviews', () => {
  const reviews = [
    brandReview({ review_id: 'a', review_rate: 5, publish_date: '2025-01-01T00:00:00Z' }),
    brandReview({ review_id: 'b', review_rate: 2, publish_date: '2025-01-03T00:00:00Z' }),
    brandReview({ review_id: 'c', review_rate: 5, publish_date: '2025-01-02T00:00:00Z' }),
  ]
  const ids = (list: BrandReview[]) => list.map((r) => r.review_id)

  it('puts the newest first for date descending', () => {
    expect(ids(orderReviews(reviews, { by: 'date', descending: true }, undefined))).toEqual(['b', 'c', 'a'])
  })

  it('orders by rate with ties by id ascending', () => {
    expect(ids(orderReviews(reviews, { by: 'rate', descending: true }, undefined))).toEqual(['a', 'c', 'b'])
  })

  it('keeps only the reviews the rate filter keeps', () => {
    expect(ids(orderReviews(reviews, { by: 'date', descending: false }, { sign: '!=', compare: 5 }))).toEqual(
      ['b'],
    )
  })
})

describe('toGenesisBrandReview', () => {
  it('writes the rate as a string and the locale as fr_FR', () => {
    const review = toGenesisBrandReview(
      brandReview({
        shop_key: 'paris',
        moderations: [
          { comment: 'Thanks', date: '2025-02-01T00:00:00Z', origin: 'shop', origin_type: 'moderator' },
        ],
      }),
    )
    expect(review).toEqual({
      id_review: 'b1',
      rate: '4',
      review: 'Fine shop',
      firstname: 'Ana',
      lastname: 'Lee',
      order_ref: 'O1',
      review_date: '2025-01-02T00:00:00Z',
      publish_date: '2025-01-03T00:00:00Z',
      order_date: '2025-01-01T00:00:00Z',
      language: 'de_DE',
      id_shop: 'paris',
      moderation: [{ comment: 'Thanks', date: '2025-02-01T00:00:00Z', origin: 'shop' }],
    })
  })
})

describe('genesisAggregate', () => {
  it('gives zero for no reviews', () => {
    expect(genesisAggregate([])).toEqual({ rate: '0', count: '0' })
  })
})

describe('static files', () => {
  const state = fakeState([
    brandReview({ review_rate: 5 }),
    brandReview({ shop_key: 'paris', review_rate: 4 }),
    brandReview({ shop_key: 'paris', review_rate: 3 }),
  ])

  it('writes count and average of every brand review in infosite.txt', () => {
    expect(brandFile(state)).toBe('3;4\n')
  })

  it('writes one line per shop after the header in infoshops.txt, without separators in values', () => {
    expect(shopsFile(state)).toBe(
      'id_shop;name_shop;review_number;rating;certificate_url\n' +
        'paris;Paris  Rivoli;2;3.5;https://cert/paris\n' +
        'lyon;Lyon;0;0;https://cert/lyon\n',
    )
  })
})
