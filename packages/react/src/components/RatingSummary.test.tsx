// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { productSummary } from '../../../../test/fixtures/reviews.ts'
import { RatingSummary } from './RatingSummary.tsx'

afterEach(cleanup)

const { ratings, extras } = productSummary()

function rows() {
  const histogram = screen.getByRole('list', { name: 'Rating distribution' })
  return within(histogram).getAllByRole('listitem')
}

describe('RatingSummary', () => {
  it('shows the average as stars named with the count', () => {
    render(<RatingSummary rating={ratings} />)
    expect(screen.getByRole('img', { name: '4.6 out of 5' })).toBeTruthy()
    expect(screen.getByText('128 reviews')).toBeTruthy()
  })

  it('has a heading at the level asked for', () => {
    render(<RatingSummary rating={ratings} headingLevel={3} />)
    expect(screen.getByRole('heading', { level: 3, name: 'Customer reviews' })).toBeTruthy()
  })

  it('lists the histogram from 5 stars down to 1 star', () => {
    render(<RatingSummary rating={ratings} />)
    expect(rows().map((row) => row.firstElementChild?.textContent)).toEqual([
      '5 stars',
      '4 stars',
      '3 stars',
      '2 stars',
      '1 star',
    ])
  })

  it('shows the count and share of each rate', () => {
    render(<RatingSummary rating={ratings} />)
    const counts = rows().map((row) => [
      // The count and the share: the spans after the label and the bar.
      ...[...row.querySelectorAll(':scope > meter ~ span')].map((cell) => cell.textContent),
    ])
    expect(counts).toEqual([
      ['100', '78%'],
      ['18', '14%'],
      ['5', '4%'],
      ['3', '2%'],
      ['2', '2%'],
    ])
  })

  it('draws each bar as a meter of its share of the reviews, hidden from assistive technology', () => {
    render(<RatingSummary rating={ratings} />)
    const bars = rows().map((row) => row.querySelector(':scope > meter'))
    expect(bars.map((bar) => bar?.getAttribute('value'))).toEqual([
      '0.781',
      '0.141',
      '0.039',
      '0.023',
      '0.016',
    ])
    expect(bars.map((bar) => bar?.getAttribute('aria-hidden'))).toEqual(Array(5).fill('true'))
  })

  it('has no filter links unless asked for', () => {
    render(<RatingSummary rating={ratings} />)
    expect(screen.queryAllByRole('link')).toHaveLength(0)
  })

  it('links each rate with reviews to the href built for it', () => {
    render(<RatingSummary rating={ratings} rateHref={(rate) => `?rate=${rate}#reviews`} />)
    expect(screen.getByRole('link', { name: '1 star' }).getAttribute('href')).toBe('?rate=1#reviews')
    expect(screen.getAllByRole('link')).toHaveLength(5)
  })

  it('does not link a rate without reviews', () => {
    render(<RatingSummary rating={{ ...ratings, count_2: 0 }} rateHref={(rate) => `?rate=${rate}`} />)
    expect(screen.queryByRole('link', { name: '2 stars' })).toBeNull()
  })

  it('marks the link of the rate the page filters by as current', () => {
    render(<RatingSummary rating={ratings} rateHref={(rate) => `?rate=${rate}`} currentRate={4} />)
    expect(screen.getByRole('link', { name: '4 stars' }).getAttribute('aria-current')).toBe('true')
    expect(screen.getByRole('link', { name: '5 stars' }).getAttribute('aria-current')).toBeNull()
  })

  it('drops a filter href that would run script', () => {
    render(<RatingSummary rating={ratings} rateHref={() => 'javascript:alert(1)'} />)
    expect(screen.queryAllByRole('link')).toHaveLength(0)
  })

  it('shows a neutral state and no histogram for a product without reviews', () => {
    const { container } = render(
      <RatingSummary
        rating={{ average: 0, count_total: 0, count_5: 0, count_4: 0, count_3: 0, count_2: 0, count_1: 0 }}
      />,
    )
    expect(screen.getByText('No reviews yet')).toBeTruthy()
    expect(screen.queryByRole('list')).toBeNull()
    expect(screen.queryByRole('img')).toBeNull()
    expect(container.firstElementChild?.classList.contains('vr-rating-summary--empty')).toBe(true)
  })

  it('shows each quality criterion with its average as stars', () => {
    render(<RatingSummary rating={ratings} criteria={extras} />)
    const term = screen.getByText('Quality')
    expect(term.tagName).toBe('DT')
    expect(screen.getByRole('img', { name: '4.4 out of 5, 90 reviews' })).toBeTruthy()
  })

  it('accepts the criteria of a bulk product rating', () => {
    render(<RatingSummary rating={ratings} criteria={[{ label: 'Comfort', average: 3.8, count: 12 }]} />)
    expect(screen.getByText('Comfort')).toBeTruthy()
    expect(screen.getByRole('img', { name: '3.8 out of 5, 12 reviews' })).toBeTruthy()
  })
})
