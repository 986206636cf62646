// @vitest-environment jsdom
import { reviewAuthorName } from '@verified-reviews/core/jsonld'
import { describe, expect, it, vi } from 'vitest'
import { sandboxForFile, type TestSandbox } from '../../../../test/fixtures/sandbox.ts'
import { jsonLdOf, renderAwaited } from '../../../../test/react/render.ts'
import { BrandReviews, type BrandReviewsProps } from './BrandReviews.tsx'

let sb: TestSandbox

function render(props: BrandReviewsProps = {}) {
  return renderAwaited(BrandReviews({ client: sb.client(), ...props }))
}

const idsOf = (body: HTMLElement) => body.querySelectorAll('.vr-review-list__items > li').length

describe('BrandReviews', () => {
  sb = sandboxForFile({ rateLimit: 0 })

  it('shows the brand’s statistics and its newest reviews, with no star markup', async () => {
    const body = await render()
    const [brand] = (await sb.client().brands.list({ linked_to_shop: false })).data
    expect(body.querySelector('.vr-brand-rating__total')?.textContent).toContain(
      brand?.count_total_since_creation.toLocaleString('en'),
    )
    expect(idsOf(body)).toBe(10)
    expect(jsonLdOf(body)).toEqual([])
  })

  it('shows one shop, named, with that shop’s reviews only', async () => {
    const [shop] = (await sb.client().brands.list({ linked_to_shop: true })).data
    const shopKey = shop?.shop_key ?? ''
    const body = await render({ shopKey, shopName: 'Lyon' })
    expect(body.querySelector('.vr-shop-rating__heading')?.textContent).toBe('Reviews of Lyon')
    const api = await sb.client().brands.reviews.list({
      shop_key: [shopKey],
      sort: 'publish_date',
      desc: 'publish_date',
      limit: 10,
    })
    const authors = [...body.querySelectorAll('.vr-review > :first-child')].map((node) => node.textContent)
    expect(authors).toEqual(api.data.map((review) => reviewAuthorName(review) || 'Anonymous customer'))
    expect(body.querySelector('a.vr-review-list__next')?.getAttribute('href')).toMatch(/^\?vr_cursor=/)
  })

  it('follows the signed cursor of its next-page link to the second page', async () => {
    const first = await render()
    const href = first.querySelector('a.vr-review-list__next')?.getAttribute('href') ?? ''
    expect(new URLSearchParams(href.slice(1)).get('vr_cursor')).toMatch(/^s1\./)
    const second = await render({ searchParams: new URLSearchParams(href.slice(1)) })
    expect(second.querySelector('a.vr-review-list__previous')).not.toBeNull()
  })

  it('shows the first page for an API cursor in vr_cursor that it did not sign, asking the API once', async () => {
    const api = await sb.client().brands.reviews.list({
      sort: 'publish_date',
      desc: 'publish_date',
      limit: 10,
    })
    const before = (await sb.stats()).operations['brands.reviews.list'] ?? 0
    const body = await render({ searchParams: { vr_cursor: api.nextCursor ?? '' } })
    expect(body.querySelector('a.vr-review-list__previous')).toBeNull()
    expect((await sb.stats()).operations['brands.reviews.list']).toBe(before + 1)
  })

  it('filters by rate as the search params say', async () => {
    const body = await render({ searchParams: { vr_rate: '1' } })
    const rates = [...body.querySelectorAll('.vr-review')].map((node) => node.getAttribute('data-rate'))
    expect(rates.length).toBeGreaterThan(0)
    expect(new Set(rates)).toEqual(new Set(['1']))
  })

  it('renders the neutral state for a shop without reviews', async () => {
    const body = await render({ shopKey: 'no-such-shop' })
    expect(body.querySelector('.vr-shop-rating--empty')?.textContent).toContain('No reviews yet')
    expect(body.querySelector('.vr-review-list')).toBeNull()
  })

  it('renders nothing and reports the failure once when the API fails', async () => {
    await sb.faults([{ operation: 'brands.reviews.list', status: 500 }])
    const onError = vi.fn()
    const element = await BrandReviews({ client: sb.client({ maxRetries: 0 }), onError })
    expect(element).toBeNull()
    expect(onError).toHaveBeenCalledTimes(1)
    expect(onError.mock.calls[0]?.[1]).toEqual({ component: 'BrandReviews' })
  })
})
