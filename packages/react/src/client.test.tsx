// @vitest-environment jsdom

import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import type { ProductReview } from '@verified-reviews/core'
import { getTextFormatter } from '@verified-reviews/core/i18n'
import { DEFAULT_MEDIA_WIDTHS } from '@verified-reviews/core/internal'
import type { ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { SWRConfig } from 'swr'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { productReview } from '../../../test/fixtures/reviews.ts'
import { canonical } from '../../../test/react/render.ts'
import { MoreReviews, type MoreReviewsProps } from './client.tsx'
import { ReviewItem } from './components/ReviewItem.tsx'
import { islandMessages } from './internal/i18n.ts'
import { navigate } from './internal/navigate.ts'
import { reviewListItems } from './internal/Review.tsx'

vi.mock('./internal/navigate.ts', () => ({ navigate: vi.fn() }))

const ENDPOINT = '/api/reviews'
const review = (id: string, rate: ProductReview['review_rate'] = 4) =>
  productReview({ review_id: id, author_firstname: id, review_rate: rate })

/** What the mocked endpoint answers, by cursor (`first` for no cursor). */
type Pages = Record<string, { data: ProductReview[]; nextCursor: string | null }>

const PAGES: Pages = {
  c2: { data: [review('Cy'), review('Dan')], nextCursor: 'c3' },
  c3: { data: [review('Eve')], nextCursor: null },
  first: { data: [review('Hal', 5), review('Ivy', 5)], nextCursor: 'h2' },
}

let requests: URL[]

function mockEndpoint(pages: Pages = PAGES, status = 200) {
  requests = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, window.location.href)
      requests.push(url)
      const page = pages[url.searchParams.get('cursor') ?? 'first'] ?? { data: [], nextCursor: null }
      return Response.json(status === 200 ? page : { error: { message: 'bad', field: 'cursor' } }, { status })
    }),
  )
}

function props(overrides: Partial<MoreReviewsProps> = {}): MoreReviewsProps {
  const text = getTextFormatter('en')
  return {
    endpoint: ENDPOINT,
    productId: 'SKU-1',
    limit: 2,
    locale: 'en',
    messages: islandMessages('en'),
    sort: 'newest',
    rates: [],
    nextCursor: 'c2',
    query: 'color=red',
    headingLevel: 3,
    children: reviewListItems([review('Ann'), review('Bob')], {
      text,
      headingLevel: 3,
      mediaWidths: DEFAULT_MEDIA_WIDTHS,
    }),
    ...overrides,
  }
}

/** The island with a cache of its own, so no test sees another's pages. */
function island(overrides: Partial<MoreReviewsProps> = {}): ReactElement {
  return (
    <SWRConfig value={{ provider: () => new Map() }}>
      <MoreReviews {...props(overrides)} />
    </SWRConfig>
  )
}

const authors = () => screen.queryAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)
const moreLink = () => screen.queryByRole('link', { name: 'More reviews' })

beforeEach(() => {
  window.history.replaceState(null, '', '/products/teapot?color=red')
  mockEndpoint()
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.mocked(navigate).mockClear()
})

describe('MoreReviews without JavaScript', () => {
  const html = () => {
    const body = document.createElement('div')
    body.innerHTML = renderToString(island())
    return body
  }

  it('is a plain link to the next page, keeping the page’s other search params', () => {
    const link = html().querySelector('a.vr-review-list__more')
    expect(link?.getAttribute('href')).toBe('?color=red&vr_cursor=c2')
    expect(link?.textContent).toBe('More reviews')
  })

  it('shows the server’s reviews in one ordered list', () => {
    const items = html().querySelectorAll('ol.vr-review-list__items > li .vr-review > :first-child')
    expect([...items].map((node) => node.textContent)).toEqual(['Ann D.', 'Bob D.'])
  })

  it('links each order and rate to the first page of that view', () => {
    const hrefs = [...html().querySelectorAll('.vr-review-controls a')].map((link) => [
      link.textContent,
      link.getAttribute('href'),
    ])
    expect(hrefs).toEqual([
      ['Newest', '?color=red'],
      ['Oldest', '?color=red&vr_sort=oldest'],
      ['Highest rating', '?color=red&vr_sort=highest'],
      ['Lowest rating', '?color=red&vr_sort=lowest'],
      ['All ratings', '?color=red'],
      ['5 stars', '?color=red&vr_rate=5'],
      ['4 stars', '?color=red&vr_rate=4'],
      ['3 stars', '?color=red&vr_rate=3'],
      ['2 stars', '?color=red&vr_rate=2'],
      ['1 star', '?color=red&vr_rate=1'],
    ])
  })

  it('fetches nothing', () => {
    html()
    expect(requests).toEqual([])
  })

  it('has no more link on the last page', () => {
    const body = document.createElement('div')
    body.innerHTML = renderToString(island({ nextCursor: null }))
    expect(body.querySelector('a.vr-review-list__more')).toBeNull()
  })
})

describe('MoreReviews with JavaScript', () => {
  it('fetches nothing until the reader asks for more', async () => {
    render(island())
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(requests).toEqual([])
    expect(authors()).toEqual(['Ann D.', 'Bob D.'])
  })

  it('asks the endpoint for the next page with the contract’s parameters', async () => {
    render(island())
    fireEvent.click(moreLink() as HTMLElement)
    await waitFor(() => expect(requests).toHaveLength(1))
    const [url] = requests
    expect(url?.pathname).toBe(ENDPOINT)
    expect(Object.fromEntries(url?.searchParams ?? [])).toEqual({
      product_variation_id: 'SKU-1',
      limit: '2',
      cursor: 'c2',
      sort: 'newest',
      locale: 'en',
    })
  })

  it('appends the next page to the same list', async () => {
    const { container } = render(island())
    fireEvent.click(moreLink() as HTMLElement)
    await waitFor(() => expect(authors()).toEqual(['Ann D.', 'Bob D.', 'Cy D.', 'Dan D.']))
    expect(container.querySelectorAll('ol')).toHaveLength(1)
  })

  it('says it is loading while it fetches', async () => {
    render(island())
    fireEvent.click(moreLink() as HTMLElement)
    expect(screen.getByRole('status').textContent).toBe('Loading reviews…')
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(''))
  })

  it('points the link at the page after and puts the last page’s cursor in the address', async () => {
    render(island())
    fireEvent.click(moreLink() as HTMLElement)
    await waitFor(() => expect(moreLink()?.getAttribute('href')).toBe('?color=red&vr_cursor=c3'))
    expect(window.location.pathname).toBe('/products/teapot')
    expect(window.location.search).toBe('?color=red&vr_cursor=c2')
  })

  it('loads page after page, then drops the link on the last one', async () => {
    render(island())
    fireEvent.click(moreLink() as HTMLElement)
    await waitFor(() => expect(authors()).toHaveLength(4))
    fireEvent.click(moreLink() as HTMLElement)
    await waitFor(() => expect(authors()).toEqual(['Ann D.', 'Bob D.', 'Cy D.', 'Dan D.', 'Eve D.']))
    expect(moreLink()).toBeNull()
    expect(window.location.search).toBe('?color=red&vr_cursor=c3')
  })

  it('leaves a click with a modifier key to the browser', () => {
    render(island())
    const link = moreLink() as HTMLElement
    const event = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true })
    link.dispatchEvent(event)
    expect(requests).toEqual([])
  })

  it('replaces the list with the first page of another order and keeps the address in step', async () => {
    render(island())
    fireEvent.click(screen.getByRole('link', { name: 'Highest rating' }))
    await waitFor(() => expect(authors()).toEqual(['Hal D.', 'Ivy D.']))
    expect(requests[0]?.searchParams.get('sort')).toBe('highest')
    expect(requests[0]?.searchParams.has('cursor')).toBe(false)
    expect(screen.getByRole('link', { name: 'Highest rating' }).getAttribute('aria-current')).toBe('true')
    expect(window.location.search).toBe('?color=red&vr_sort=highest')
    expect(moreLink()?.getAttribute('href')).toBe('?color=red&vr_cursor=h2&vr_sort=highest')
  })

  it('filters by rate, and says so when no review has it', async () => {
    mockEndpoint({})
    render(island())
    const sort = within(screen.getByRole('navigation', { name: 'Filter by rating' }))
    fireEvent.click(sort.getByRole('link', { name: '2 stars' }))
    await waitFor(() => expect(screen.queryByText('No reviews with this rating')).not.toBeNull())
    expect(requests[0]?.searchParams.get('rate')).toBe('2')
    expect(window.location.search).toBe('?color=red&vr_rate=2')
  })

  it('shows the server’s page again, without fetching, when the reader comes back to its view', async () => {
    render(island({ cursor: 'c1' }))
    fireEvent.click(screen.getByRole('link', { name: 'Oldest' }))
    await waitFor(() => expect(requests).toHaveLength(1))
    fireEvent.click(screen.getByRole('link', { name: 'Newest' }))
    expect(authors()).toEqual(['Ann D.', 'Bob D.'])
    expect(requests).toHaveLength(1)
    expect(window.location.search).toBe('?color=red&vr_cursor=c1')
  })

  it('follows the link as the browser would when the endpoint fails', async () => {
    mockEndpoint(PAGES, 400)
    render(island())
    fireEvent.click(moreLink() as HTMLElement)
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('?color=red&vr_cursor=c2'))
  })

  it('follows a sort link as the browser would when the endpoint fails', async () => {
    mockEndpoint(PAGES, 500)
    render(island())
    fireEvent.click(screen.getByRole('link', { name: 'Lowest rating' }))
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('?color=red&vr_sort=lowest'))
  })

  it('follows the link when the endpoint answers something other than a page', async () => {
    requests = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ reviews: [] })),
    )
    render(island())
    fireEvent.click(moreLink() as HTMLElement)
    await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1))
  })
})

describe('MoreReviews renders reviews as ReviewItem does', () => {
  const LOCALES = ['bg', 'cs', 'de', 'el', 'en', 'es', 'fr', 'it', 'nl', 'pl', 'pt', 'sk', 'tr'] as const
  const full = productReview({
    review_id: 'x',
    incentivization: 'gifted',
    syndicated_review: true,
    syndicated_review_source: 'Acme Germany',
    syndicated_review_source_url: 'https://acme.example.de/p/1',
  })

  for (const locale of LOCALES) {
    it(`with only the messages the server passes, in ${locale}`, async () => {
      mockEndpoint({
        c2: { data: [full, { ...full, review_id: 'y', translated_review: {} }], nextCursor: null },
      })
      const { container } = render(
        island({ locale, messages: islandMessages(locale), children: [], nextCursor: 'c2' }),
      )
      fireEvent.click(container.querySelector('a.vr-review-list__more') as HTMLElement)
      await waitFor(() => expect(container.querySelectorAll('article')).toHaveLength(2))
      const holder = document.createElement('div')
      holder.innerHTML = [full, { ...full, review_id: 'y', translated_review: {} }]
        .map((item) => renderToString(<ReviewItem review={item} locale={locale} headingLevel={3} />))
        .join('')
      expect([...container.querySelectorAll('article')].map(canonical)).toEqual(
        [...holder.querySelectorAll('article')].map(canonical),
      )
    })
  }
})
