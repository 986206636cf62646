// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { productReview } from '../../../../test/fixtures/reviews.ts'
import { ReviewList } from './ReviewList.tsx'

afterEach(cleanup)

const reviews = [
  productReview({ review_id: 'a', author_firstname: 'Ana' }),
  productReview({ review_id: 'b', author_firstname: 'Ben' }),
]

describe('ReviewList', () => {
  it('is an ordered list of reviews in the order given', () => {
    const { container } = render(<ReviewList reviews={reviews} />)
    const list = container.querySelector('ol.vr-review-list__items') as HTMLElement
    const authors = [...list.children].map(
      (item) => item.querySelector('.vr-review > :first-child')?.textContent,
    )
    expect(authors).toEqual(['Ana D.', 'Ben D.'])
  })

  it('puts the review headings one level below its own', () => {
    render(<ReviewList reviews={reviews} headingLevel={3} />)
    expect(screen.getByRole('heading', { level: 3, name: 'Reviews' })).toBeTruthy()
    expect(screen.getAllByRole('heading', { level: 4 })).toHaveLength(2)
  })

  it('shows a neutral state without reviews', () => {
    const { container } = render(<ReviewList reviews={[]} />)
    expect(screen.getByText('No reviews yet')).toBeTruthy()
    expect(container.querySelector('ol')).toBeNull()
    expect(container.firstElementChild?.classList.contains('vr-review-list--empty')).toBe(true)
  })

  it('has no pagination without hrefs', () => {
    render(<ReviewList reviews={reviews} />)
    expect(screen.queryByRole('navigation')).toBeNull()
  })

  it('links to the previous and next pages in a named navigation', () => {
    render(<ReviewList reviews={reviews} previousHref="?cursor=p" nextHref="/p/1?cursor=n#reviews" />)
    const nav = screen.getByRole('navigation', { name: 'Review pages' })
    const previous = within(nav).getByRole('link', { name: 'Previous' })
    const next = within(nav).getByRole('link', { name: 'Next' })
    expect([previous.getAttribute('href'), previous.getAttribute('rel')]).toEqual(['?cursor=p', 'prev'])
    expect([next.getAttribute('href'), next.getAttribute('rel')]).toEqual(['/p/1?cursor=n#reviews', 'next'])
  })

  it('shows only the next link on the first page', () => {
    render(<ReviewList reviews={reviews} nextHref="?cursor=n" />)
    const nav = screen.getByRole('navigation', { name: 'Review pages' })
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Next'])
  })

  it('drops a pagination href that would run script', () => {
    render(<ReviewList reviews={reviews} nextHref={' javascript:alert(1)'} />)
    expect(screen.queryByRole('navigation')).toBeNull()
  })

  it('renders every review in the list locale', () => {
    const { container } = render(<ReviewList reviews={reviews} locale="de" />)
    expect(container.querySelector('.vr-review__content')?.textContent).toBe(
      'Sehr gutes Produkt, schnell geliefert.',
    )
  })

  it('says how reviews are checked, one click away', () => {
    const { container } = render(<ReviewList reviews={reviews} />)
    const details = container.querySelector('details.vr-review-list__checks')
    expect(details?.querySelector('summary')?.textContent).toBe('How reviews are checked')
    expect(details?.textContent).toContain('Verified Reviews')
  })

  it('says how reviews are checked even without reviews', () => {
    const { container } = render(<ReviewList reviews={[]} />)
    expect(container.querySelector('details.vr-review-list__checks')).not.toBeNull()
  })
})
