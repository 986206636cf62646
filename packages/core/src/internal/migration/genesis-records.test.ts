import { describe, expect, it } from 'vitest'
import type { GenesisBrandReview, GenesisProductReview } from '../../types/genesis.ts'
import { ValidationError } from '../base/errors.ts'
import {
  fromGenesisAveragesResponse,
  fromGenesisBrandFile,
  fromGenesisBrandReview,
  fromGenesisProductReview,
  fromGenesisProductReviewsResponse,
  fromGenesisShopLine,
  fromGenesisWebsiteResponse,
  parseGenesisBrandFile,
  parseGenesisShopsFile,
} from './genesis-records.ts'

function brandReview(overrides: Partial<GenesisBrandReview> = {}): GenesisBrandReview {
  return {
    id_review: 'b1',
    rate: '4',
    review: 'Fast delivery',
    firstname: 'Ana',
    lastname: 'Lee',
    order_ref: 'O-1',
    review_date: '2025-01-02T10:00:00Z',
    publish_date: '2025-01-03T10:00:00Z',
    order_date: '2025-01-01T10:00:00Z',
    language: 'de_DE',
    id_shop: 'shop-1',
    moderation: [{ comment: 'Danke', date: '2025-01-04T10:00:00Z', origin: 'merchant' }],
    ...overrides,
  }
}

function productReview(overrides: Partial<GenesisProductReview> = {}): GenesisProductReview {
  const { id_shop: _, ...base } = brandReview()
  return { ...base, id_review: 'p1', id_product: 'SKU-001', ...overrides }
}

describe('fromGenesisBrandReview', () => {
  it('renames the fields and reads the rate as a number', () => {
    expect(fromGenesisBrandReview(brandReview(), { websiteId: 'w-1' })).toMatchObject({
      review_id: 'b1',
      review_rate: 4,
      review_content: 'Fast delivery',
      order_reference: 'O-1',
      shop_key: 'shop-1',
      author_firstname: 'Ana',
      author_lastname: 'Lee',
      locale: 'de_DE',
      website_id: 'w-1',
      publish_date: '2025-01-03T10:00:00Z',
      moderations: [
        { comment: 'Danke', date: '2025-01-04T10:00:00Z', origin: 'merchant', origin_type: 'moderator' },
      ],
    })
  })

  it('claims neither verification nor incentive that Genesis does not state', () => {
    const review = fromGenesisBrandReview(brandReview())
    expect([review.is_verified, review.incentivization, review.website_id]).toEqual([false, 'none', ''])
  })

  it('treats a review without any author name as undisclosed', () => {
    expect(
      fromGenesisBrandReview(brandReview({ firstname: '', lastname: '' })).is_personal_data_disclosed,
    ).toBe(false)
  })

  it('refuses a rate outside 1 to 5', () => {
    expect(() => fromGenesisBrandReview(brandReview({ rate: '4.5' }))).toThrow(/1 to 5/)
  })
})

describe('fromGenesisProductReview', () => {
  it('takes the product from id_product', () => {
    expect(fromGenesisProductReview(productReview())).toMatchObject({
      review_id: 'p1',
      product_variation_id: 'SKU-001',
      review_rate: 4,
      order_reference: 'O-1',
    })
  })
})

describe('fromGenesisWebsiteResponse', () => {
  it('maps the reviews of the page', () => {
    const response = {
      count: '2',
      average: '4.5',
      page: 1,
      range: 10,
      reviews: [brandReview(), brandReview({ id_review: 'b2' })],
    }
    expect(fromGenesisWebsiteResponse(response).map((r) => r.review_id)).toEqual(['b1', 'b2'])
  })
})

describe('fromGenesisProductReviewsResponse', () => {
  it('flattens the reviews of every product in answer order', () => {
    const flat = fromGenesisProductReviewsResponse({
      B: [productReview({ id_review: 'b', id_product: 'B' })],
      C: [],
      A: [productReview({ id_review: 'a', id_product: 'A' })],
    })
    expect(flat.map((r) => r.review_id)).toEqual(['b', 'a'])
  })
})

describe('fromGenesisAveragesResponse', () => {
  it('reads the string numbers and leaves out products without reviews', () => {
    expect(fromGenesisAveragesResponse({ A: [{ rate: '4.33', count: '57' }], B: [] })).toEqual([
      { product_variation_id: 'A', average: 4.33, count_total: 57 },
    ])
  })
})

describe('parseGenesisBrandFile', () => {
  it('reads count and average', () => {
    expect(parseGenesisBrandFile('500;4.27\n')).toEqual({ review_count: 500, average: 4.27 })
  })

  it('reads a decimal comma and Windows line endings', () => {
    expect(parseGenesisBrandFile('\uFEFF12;3,5\r\n')).toEqual({ review_count: 12, average: 3.5 })
  })

  it('refuses a file that is not one count;average line', () => {
    expect(() => parseGenesisBrandFile('')).toThrow(ValidationError)
    expect(() => parseGenesisBrandFile('1;2;3')).toThrow(ValidationError)
    expect(() => parseGenesisBrandFile('many;4.1')).toThrow(/count/)
  })
})

describe('parseGenesisShopsFile', () => {
  const file =
    'id_shop;name_shop;review_number;rating;certificate_url\n' +
    'shop-1;Paris Opéra;120;4.51;https://example.test/cert/shop-1\n' +
    '\n' +
    'shop-2;Lyon;0;0;https://example.test/cert/shop-2\n'

  it('reads one entry per shop line, skipping blank lines', () => {
    expect(parseGenesisShopsFile(file)).toEqual([
      {
        id_shop: 'shop-1',
        name_shop: 'Paris Opéra',
        review_number: 120,
        rating: 4.51,
        certificate_url: 'https://example.test/cert/shop-1',
      },
      {
        id_shop: 'shop-2',
        name_shop: 'Lyon',
        review_number: 0,
        rating: 0,
        certificate_url: 'https://example.test/cert/shop-2',
      },
    ])
  })

  it('reads the columns by their header names', () => {
    const reordered = 'rating;id_shop;review_number;name_shop;certificate_url\n4.5;s;3;S;u\n'
    expect(parseGenesisShopsFile(reordered)[0]).toMatchObject({ id_shop: 's', rating: 4.5, review_number: 3 })
  })

  it('reads the header names in any case, as the client did', () => {
    const shouted = 'ID_SHOP;NAME_SHOP;REVIEW_NUMBER;RATING;CERTIFICATE_URL\ns;S;3;4.5;u\n'
    expect(parseGenesisShopsFile(shouted)[0]).toMatchObject({ id_shop: 's', rating: 4.5, review_number: 3 })
  })

  it('refuses a header that lacks a column', () => {
    expect(() => parseGenesisShopsFile('id_shop;name_shop\n')).toThrow(
      /review_number, rating, certificate_url/,
    )
  })

  it('names the line of a row with the wrong number of values', () => {
    expect(() => parseGenesisShopsFile(`${file}shop-3;x\n`)).toThrow(/line 5/)
  })
})

describe('fromGenesisBrandFile and fromGenesisShopLine', () => {
  it('give the brand entry an empty shop key', () => {
    expect(fromGenesisBrandFile({ review_count: 500, average: 4.27 })).toEqual({
      shop_key: '',
      count_total_since_creation: 500,
      average: 4.27,
    })
  })

  it('key a shop line by its id', () => {
    const line = { id_shop: 's1', name_shop: 'Paris', review_number: 3, rating: 4.5, certificate_url: 'u' }
    expect(fromGenesisShopLine(line)).toEqual({ shop_key: 's1', count_total_since_creation: 3, average: 4.5 })
  })
})
