import { describe, expect, it } from 'vitest'
import {
  checkLimit,
  endpointUrl,
  otherParams,
  pageHrefs,
  parseReviewView,
  rateLinks,
  sortFields,
  viewHref,
} from './review-query.ts'

describe('parseReviewView', () => {
  it('shows the newest reviews of every rate from the first page when the page says nothing', () => {
    expect(parseReviewView(undefined)).toEqual({ sort: 'newest', rates: [], cursor: undefined })
  })

  it('reads the order, rates and cursor from a record of search params', () => {
    expect(parseReviewView({ vr_sort: 'lowest', vr_rate: '2,1', vr_cursor: 'abc.DEF-1_=' })).toEqual({
      sort: 'lowest',
      rates: [1, 2],
      cursor: 'abc.DEF-1_=',
    })
  })

  it('reads them from URLSearchParams too', () => {
    const view = parseReviewView(new URLSearchParams('vr_sort=highest&vr_rate=5&vr_cursor=x'))
    expect(view).toEqual({ sort: 'highest', rates: [5], cursor: 'x' })
  })

  it('takes the first of repeated values', () => {
    expect(parseReviewView({ vr_sort: ['oldest', 'highest'] }).sort).toBe('oldest')
  })

  it('ignores an unknown order', () => {
    expect(parseReviewView({ vr_sort: 'best' }).sort).toBe('newest')
  })

  it('keeps only the rates from 1 to 5, once each', () => {
    expect(parseReviewView({ vr_rate: '5, 0,x,5,3,6,-1,2.5' }).rates).toEqual([3, 5])
  })

  it('ignores a cursor with blanks, markup or more than 1,024 characters', () => {
    for (const cursor of ['a b', '<script>', '', 'é', 'x'.repeat(1025), 'a\nb']) {
      expect(parseReviewView({ vr_cursor: cursor }).cursor).toBeUndefined()
    }
  })
})

describe('viewHref', () => {
  it('leaves out of the links a junk parameter longer than a page param can be, and any beyond eight', () => {
    const junk = 'x'.repeat(6000)
    expect(otherParams({ color: 'red', junk, size: 's' })).toBe('color=red&size=s')
    expect(otherParams({ [junk]: 'red' })).toBe('')
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`p${index}`, 'v']))
    expect(otherParams(many).split('&')).toHaveLength(8)
    const long = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`p${index}`, 'v'.repeat(200)]))
    expect(otherParams(long).length).toBeLessThanOrEqual(512 + 8)
  })

  it('keeps the page’s other search params and leaves defaults out', () => {
    const other = otherParams({ color: 'red', vr_cursor: 'old', vr_sort: 'oldest', size: ['s', 'm'] })
    expect(viewHref(other, { sort: 'newest', rates: [] })).toBe('?color=red&size=s&size=m')
  })

  it('carries the cursor, order and rates', () => {
    expect(viewHref('', { sort: 'highest', rates: [4, 5], cursor: 'c/1+=' })).toBe(
      '?vr_cursor=c%2F1%2B%3D&vr_sort=highest&vr_rate=4,5',
    )
  })

  it('is a bare question mark for the default view of a page without search params', () => {
    expect(viewHref('', { sort: 'newest', rates: [] })).toBe('?')
  })
})

describe('sortFields', () => {
  it('sorts by publication date or by rate, descending for newest and highest', () => {
    expect(sortFields('newest')).toEqual({ sort: ['publish_date'], desc: ['publish_date'] })
    expect(sortFields('oldest')).toEqual({ sort: ['publish_date'] })
    expect(sortFields('highest')).toEqual({ sort: ['review_rate'], desc: ['review_rate'] })
    expect(sortFields('lowest')).toEqual({ sort: ['review_rate'] })
  })
})

describe('endpointUrl', () => {
  it('asks for one page with every parameter of the contract', () => {
    const url = endpointUrl('/api/reviews', {
      productId: 'SKU 1',
      limit: 10,
      cursor: 'abc',
      sort: 'lowest',
      rates: [1, 2],
      locale: 'fr',
    })
    expect(url).toBe(
      '/api/reviews?product_variation_id=SKU+1&limit=10&cursor=abc&sort=lowest&rate=1,2&locale=fr',
    )
  })

  it('leaves out the cursor and rate when there are none, and joins an endpoint that has a query', () => {
    const url = endpointUrl('/api/reviews?site=a', {
      productId: 'SKU-1',
      limit: 5,
      sort: 'newest',
      rates: [],
      locale: 'en',
    })
    expect(url).toBe('/api/reviews?site=a&product_variation_id=SKU-1&limit=5&sort=newest&locale=en')
  })
})

describe('checkLimit', () => {
  it('accepts whole numbers from 1 to 50 only', () => {
    expect(() => checkLimit(1)).not.toThrow()
    expect(() => checkLimit(50)).not.toThrow()
    for (const limit of [0, 51, 2.5, Number.NaN]) expect(() => checkLimit(limit)).toThrow(RangeError)
  })

  it('names the component that was given the bad limit', () => {
    expect(() => checkLimit(0, 'BrandReviews')).toThrow(
      'BrandReviews: limit must be a whole number from 1 to 50, got 0',
    )
  })
})

describe('pageHrefs', () => {
  it('links the pages before and after with their cursors and the same view', () => {
    expect(
      pageHrefs('a=1', { sort: 'oldest', rates: [5] }, { previousCursor: 'p', nextCursor: 'n' }),
    ).toEqual({
      previousHref: '?a=1&vr_cursor=p&vr_sort=oldest&vr_rate=5',
      nextHref: '?a=1&vr_cursor=n&vr_sort=oldest&vr_rate=5',
    })
  })

  it('gives no href where there is no page', () => {
    expect(pageHrefs('', { sort: 'newest', rates: [] }, { previousCursor: null })).toEqual({
      previousHref: undefined,
      nextHref: undefined,
    })
  })
})

describe('rateLinks', () => {
  it('links each rate to its first page in the same order', () => {
    const { rateHref } = rateLinks('a=1', { sort: 'highest', rates: [4, 5], cursor: 'c' })
    expect(rateHref(3)).toBe('?a=1&vr_sort=highest&vr_rate=3')
  })

  it('marks the rate filtered on only when there is exactly one', () => {
    expect(rateLinks('', { sort: 'newest', rates: [4] }).currentRate).toBe(4)
    expect(rateLinks('', { sort: 'newest', rates: [4, 5] }).currentRate).toBeUndefined()
  })
})
