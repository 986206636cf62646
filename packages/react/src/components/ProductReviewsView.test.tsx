// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { HOSTILE_STRINGS } from '../../../../test/fixtures/hostile.ts'
import { productReview, productSummary } from '../../../../test/fixtures/reviews.ts'
import { bodyOf, jsonLdOf } from '../../../../test/react/render.ts'
import { ProductReviewsView, type ProductReviewsViewProps } from './ProductReviewsView.tsx'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const URL_OF_PAGE = 'https://shop.example/products/teapot'
const reviews = [
  productReview({ review_id: 'a' }),
  productReview({ review_id: 'b', author_firstname: 'Ana' }),
]

function view(props: Partial<ProductReviewsViewProps> = {}) {
  return (
    <ProductReviewsView
      productId="SKU-1"
      summary={productSummary()}
      reviews={reviews}
      nextCursor="n2"
      url={URL_OF_PAGE}
      {...props}
    />
  )
}

describe('ProductReviewsView', () => {
  it('shows the rating summary, the AI summary and the reviews under their headings', () => {
    render(view())
    for (const name of ['Customer reviews', 'AI-generated summary', 'Reviews']) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeTruthy()
    }
    expect(screen.getAllByRole('article')).toHaveLength(2)
  })

  it('links the histogram rows to the rate filter, keeping the order chosen', () => {
    render(view({ searchParams: { vr_sort: 'oldest' } }))
    const histogram = screen.getByRole('list', { name: 'Rating distribution' })
    expect(within(histogram).getByRole('link', { name: '5 stars' }).getAttribute('href')).toBe(
      '?vr_sort=oldest&vr_rate=5',
    )
  })

  it('links to the previous and next pages in the page URL', () => {
    render(view({ previousCursor: 'p1', searchParams: { vr_cursor: 'c1', page: 'x' } }))
    expect(screen.getByRole('link', { name: 'Previous' }).getAttribute('href')).toBe('?page=x&vr_cursor=p1')
    expect(screen.getByRole('link', { name: 'Next' }).getAttribute('href')).toBe('?page=x&vr_cursor=n2')
  })

  it('says no review has the rate chosen', () => {
    render(view({ reviews: [], nextCursor: null, searchParams: { vr_rate: '2' } }))
    expect(screen.getByText('No reviews with this rating')).toBeTruthy()
  })

  it('renders one JSON-LD script with the page’s one Product node', () => {
    const body = bodyOf(renderToString(view({ product: { name: 'Teapot' } })))
    const nodes = jsonLdOf(body)
    expect(nodes).toHaveLength(1)
    expect(nodes[0]).toMatchObject({
      '@id': URL_OF_PAGE,
      name: 'Teapot',
      aggregateRating: { reviewCount: 128 },
    })
  })

  it('marks up the AI summary only when given the organization it is attributed to', () => {
    const without = jsonLdOf(bodyOf(renderToString(view())))[0] as { review: unknown[] }
    const withAuthor = jsonLdOf(bodyOf(renderToString(view({ reviewSummaryAuthor: 'Acme' }))))[0] as {
      review: unknown[]
    }
    expect(withAuthor.review).toHaveLength(without.review.length + 1)
    expect(withAuthor.review.at(-1)).toMatchObject({ author: { '@type': 'Organization', name: 'Acme' } })
  })

  it('marks up the text each review shows: the translation on a page in another language, with inLanguage', () => {
    const node = (locale: string) =>
      jsonLdOf(bodyOf(renderToString(view({ locale, reviews: [reviews[0] ?? productReview()] }))))[0] as {
        review: { reviewBody: string; inLanguage: string }[]
      }
    render(view({ locale: 'en', reviews: [reviews[0] ?? productReview()] }))
    expect(screen.getByText('Very good product, delivered fast.')).toBeTruthy()
    expect(node('en').review[0]).toMatchObject({
      reviewBody: 'Very good product, delivered fast.',
      inLanguage: 'en',
    })
    expect(node('fr').review[0]).toMatchObject({
      reviewBody: 'Très bon produit, livré vite.',
      inLanguage: 'fr',
    })
  })

  it('shows syndicated reviews but marks them up only with jsonLdSyndicatedReviews', () => {
    const shared = [
      productReview({ review_id: 's', syndicated_review: true, syndicated_review_source: 'Acme BE' }),
    ]
    const bodyWithout = bodyOf(renderToString(view({ reviews: shared })))
    expect(bodyWithout.querySelectorAll('ol.vr-review-list__items > li')).toHaveLength(1)
    expect(jsonLdOf(bodyWithout)[0]).not.toHaveProperty('review')
    const bodyWith = bodyOf(renderToString(view({ reviews: shared, jsonLdSyndicatedReviews: true })))
    expect((jsonLdOf(bodyWith)[0] as { review: unknown[] }).review).toHaveLength(1)
  })

  it('goes on by links for a group of variations, whose reviews the island cannot serve', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const body = bodyOf(renderToString(view({ productId: ['SKU-1', 'SKU-2'], endpoint: '/api/reviews' })))
    expect(body.querySelector('a.vr-review-list__more')).toBeNull()
    expect(body.querySelector('a[href="?vr_cursor=n2"]')?.textContent).toBe('Next')
  })

  it('renders a node given as jsonLd as it is, and none for false', () => {
    const node = {
      '@context': 'https://schema.org',
      '@type': 'Product',
      '@id': URL_OF_PAGE,
      name: 'X',
    } as const
    expect(jsonLdOf(bodyOf(renderToString(view({ jsonLd: node }))))).toEqual([node])
    expect(jsonLdOf(bodyOf(renderToString(view({ jsonLd: false }))))).toEqual([])
  })

  it('writes the id and nonce of the JSON-LD script', () => {
    const body = bodyOf(renderToString(view({ jsonLdId: 'ld', jsonLdNonce: 'abc' })))
    const script = body.querySelector('script')
    expect(script?.id).toBe('ld')
    expect(script?.getAttribute('nonce')).toBe('abc')
  })

  it('puts the sort and rate links of the island in the first HTML when given an endpoint', () => {
    const body = bodyOf(renderToString(view({ endpoint: '/api/reviews' })))
    expect(body.querySelector('a.vr-review-list__more')?.getAttribute('href')).toBe('?vr_cursor=n2')
    expect(body.querySelectorAll('.vr-review-controls a')).toHaveLength(10)
    expect(body.querySelectorAll('ol.vr-review-list__items > li')).toHaveLength(2)
  })

  it('shows only the neutral state for a product without reviews or summary', () => {
    const { container } = render(view({ summary: undefined, reviews: [], nextCursor: null, jsonLd: false }))
    expect(container.querySelector('.vr-rating-summary--empty')?.textContent).toContain('No reviews yet')
    expect(container.querySelector('.vr-review-list')).toBeNull()
  })

  it('escapes hostile search params in every link it writes', () => {
    for (const { value } of HOSTILE_STRINGS) {
      const body = bodyOf(renderToString(view({ searchParams: { q: value, vr_cursor: value } })))
      const hrefs = [...body.querySelectorAll('a[href^="?"]')].map((link) => link.getAttribute('href') ?? '')
      expect(hrefs.length).toBeGreaterThan(0)
      // Kept, escaped, up to 256 characters; a longer one is left out of the links.
      const kept = value.length <= 256 ? value : null
      for (const href of hrefs) expect(new URLSearchParams(href.slice(1)).get('q')).toBe(kept)
      expect(body.querySelectorAll('script')).toHaveLength(1)
    }
  })

  it('refuses a page size the island’s endpoint cannot serve', () => {
    expect(() => renderToString(view({ limit: 0 }))).toThrow(RangeError)
  })
})
