import { describe, expect, it } from 'vitest'
import { reviewViewRewrites } from './config.ts'

describe('reviewViewRewrites', () => {
  it('rewrites the page to its dynamic twin when any review view param is present', () => {
    expect(reviewViewRewrites({ source: '/products/:id', destination: '/products/:id/reviews' })).toEqual([
      {
        source: '/products/:id',
        destination: '/products/:id/reviews',
        has: [{ type: 'query', key: 'vr_cursor' }],
      },
      {
        source: '/products/:id',
        destination: '/products/:id/reviews',
        has: [{ type: 'query', key: 'vr_sort' }],
      },
      {
        source: '/products/:id',
        destination: '/products/:id/reviews',
        has: [{ type: 'query', key: 'vr_rate' }],
      },
    ])
  })

  it('takes several routes', () => {
    const rewrites = reviewViewRewrites([
      { source: '/a/:id', destination: '/a/:id/r' },
      { source: '/b/:id', destination: '/b/:id/r' },
    ])
    expect(rewrites.map((rewrite) => rewrite.source)).toEqual([
      '/a/:id',
      '/a/:id',
      '/a/:id',
      '/b/:id',
      '/b/:id',
      '/b/:id',
    ])
  })
})
