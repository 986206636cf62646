import { describe, expect, it } from 'vitest'
import { apiCalls, apiCallsBetween } from '../fixtures/sandbox-stats.ts'
import { pageFacts } from './page-facts.ts'

const PRODUCT =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","review":[{},{}]}</script>'

describe('pageFacts', () => {
  it('counts review items, Product nodes (also in @graph) and finds stars and the next link', () => {
    const html = `<p aria-label="4.6 out of 5, 3 reviews"></p>
      <article class="vr-review" data-rate="5"></article><article class="vr-review vr-x"></article>
      <article class="vr-reviewer"></article><article class="review"></article>
      ${PRODUCT}
      <script type="application/ld+json">{"@graph":[{"@type":"ProductGroup"},{"@type":"Organization"}]}</script>
      <a class="vr-review-list__next" href="?vr_cursor=a&amp;vr_sort=newest">More</a>`
    expect(pageFacts('/p', html)).toEqual({
      path: '/p',
      stars: true,
      reviews: 3,
      jsonLdReviews: 2,
      productNodes: 2,
      moreLink: '?vr_cursor=a&vr_sort=newest',
      streamedBoundaries: 0,
    })
  })

  it('says what a page without reviews lacks', () => {
    expect(pageFacts('/q', '<main>nothing</main>')).toEqual({
      path: '/q',
      stars: false,
      reviews: 0,
      jsonLdReviews: 0,
      productNodes: 0,
      moreLink: undefined,
      streamedBoundaries: 0,
    })
  })

  it('counts the Suspense boundaries streamed behind their fallback', () => {
    const html = `<!--$?--><template id="B:0"></template><main aria-busy="true"></main><!--/$-->
      <div hidden id="S:0"><main><article class="vr-review"></article></main></div>`
    expect(pageFacts('/r', html)).toMatchObject({ reviews: 1, streamedBoundaries: 1 })
  })
})

describe('apiCalls', () => {
  it('keeps the operations that grew, token requests apart', () => {
    expect(
      apiCalls(
        { 'products.list': 2, 'token.published': 1 },
        { 'products.list': 3, 'products.reviews.list': 1, 'token.published': 2, 'brand.reviews.list': 0 },
      ),
    ).toEqual({ 'products.list': 1, 'products.reviews.list': 1 })
  })

  it('sums to apiCallsBetween', () => {
    expect(
      apiCallsBetween({ 'products.list': 2 }, { 'products.list': 5, 'token.published': 4, 'x.y': 2 }),
    ).toBe(5)
  })
})
