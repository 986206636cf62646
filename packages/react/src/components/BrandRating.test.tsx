// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { brandRating } from '../../../../test/fixtures/reviews.ts'
import { BrandRating } from './BrandRating.tsx'

afterEach(cleanup)

function period(name: string): HTMLElement {
  return screen.getByRole('heading', { name }).parentElement as HTMLElement
}

describe('BrandRating', () => {
  it('has a heading at the level asked for and period headings below it', () => {
    render(<BrandRating rating={brandRating()} headingLevel={3} />)
    expect(screen.getByRole('heading', { level: 3, name: 'Customer reviews' })).toBeTruthy()
    expect(screen.getAllByRole('heading', { level: 4 }).map((h) => h.textContent)).toEqual([
      'Last 12 months',
      'Last 5 years',
    ])
  })

  it('shows the total since the oldest review with a time element', () => {
    const { container } = render(<BrandRating rating={brandRating()} />)
    const total = container.querySelector('.vr-brand-rating__total')
    expect(total?.textContent).toBe('2,480 reviews since June 1, 2019')
    expect(total?.querySelector('time')?.getAttribute('datetime')).toBe('2019-06-01T00:00:00Z')
  })

  it('shows the one-year average and the count summed from its rates', () => {
    render(<BrandRating rating={brandRating()} />)
    const oneYear = period('Last 12 months')
    expect(within(oneYear).getByRole('img', { name: '4.5 out of 5' })).toBeTruthy()
    expect(within(oneYear).getByText('400 reviews')).toBeTruthy()
  })

  it('shows the five-year histogram', () => {
    render(<BrandRating rating={brandRating()} />)
    const fiveYears = period('Last 5 years')
    const counts = within(within(fiveYears).getByRole('list', { name: 'Rating distribution' }))
      .getAllByRole('listitem')
      .map((row) => row.querySelector(':scope > meter + span')?.textContent)
    expect(counts).toEqual(['1,500', '500', '100', '40', '20'])
  })

  it('says a period without reviews has none', () => {
    const empty = { average: 0, count_5: 0, count_4: 0, count_3: 0, count_2: 0, count_1: 0 }
    render(<BrandRating rating={brandRating({ one_year: empty })} />)
    expect(within(period('Last 12 months')).getByText('No reviews in this period')).toBeTruthy()
  })

  it('shows a neutral state for a brand without reviews', () => {
    const { container } = render(<BrandRating rating={brandRating({ count_total_since_creation: 0 })} />)
    expect(screen.getByText('No reviews yet')).toBeTruthy()
    expect(container.querySelector('.vr-rating-period')).toBeNull()
  })
})
