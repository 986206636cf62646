// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { RatingBadge } from './RatingBadge.tsx'

afterEach(cleanup)

describe('RatingBadge', () => {
  it('names the stars with the average and the count', () => {
    render(<RatingBadge rating={{ average: 4.56, count_total: 128 }} />)
    expect(screen.getByRole('img', { name: '4.6 out of 5, 128 reviews' })).toBeTruthy()
  })

  it('shows the average and the count, hidden from assistive technology that hears the stars', () => {
    const { container } = render(<RatingBadge rating={{ average: 4.56, count_total: 128 }} />)
    expect(container.querySelector('.vr-rating-badge__average')?.textContent).toBe('4.6')
    expect(container.querySelector('.vr-rating-badge__count')?.textContent).toBe('128 reviews')
    expect(container.querySelector('.vr-rating-badge__count')?.getAttribute('aria-hidden')).toBe('true')
  })

  it('speaks the page’s language', () => {
    render(<RatingBadge rating={{ average: 4.56, count_total: 1280 }} locale="fr" />)
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe('4,6 sur 5, 1\u202f280 avis')
  })

  it('shows a neutral state for a product without reviews', () => {
    for (const rating of [undefined, null, { average: 0, count_total: 0 }]) {
      const { container } = render(<RatingBadge rating={rating} />)
      expect(container.querySelector('.vr-rating-badge--empty')?.textContent).toBe('No reviews yet')
      expect(screen.queryByRole('img')).toBeNull()
      cleanup()
    }
  })

  it('keeps an average outside 0 to 5 within the stars', () => {
    const { container } = render(<RatingBadge rating={{ average: 7, count_total: 2 }} />)
    expect(container.querySelector('.vr-rating-badge__average')?.textContent).toBe('5.0')
  })

  it('adds class names after its own', () => {
    const { container } = render(<RatingBadge rating={{ average: 4, count_total: 2 }} className="card" />)
    expect(container.firstElementChild?.className).toBe('vr-rating-badge card')
  })
})
