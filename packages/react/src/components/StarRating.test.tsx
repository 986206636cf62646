// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { StarRating } from './StarRating.tsx'

afterEach(cleanup)

function filledWidth(container: HTMLElement): number {
  const filled = container.querySelector('.vr-star-rating__filled')
  return Number(filled?.getAttribute('width'))
}

describe('StarRating', () => {
  it('is an image named by its rating out of 5', () => {
    render(<StarRating value={4.6} />)
    expect(screen.getByRole('img', { name: '4.6 out of 5' })).toBeTruthy()
  })

  it('adds the review count to its accessible name', () => {
    render(<StarRating value={4.6} count={128} />)
    expect(screen.getByRole('img', { name: '4.6 out of 5, 128 reviews' })).toBeTruthy()
  })

  it('uses the singular for a single review', () => {
    render(<StarRating value={5} count={1} />)
    expect(screen.getByRole('img', { name: '5.0 out of 5, 1 review' })).toBeTruthy()
  })

  it('names the rating in the requested language', () => {
    render(<StarRating value={4.6} count={128} locale="fr" />)
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe('4,6 sur 5, 128 avis')
  })

  it('fills the stars in proportion to a fractional rating', () => {
    const { container } = render(<StarRating value={4.6} />)
    expect(filledWidth(container)).toBeCloseTo((4.6 / 5) * 120)
  })

  it('fills exactly half of the third star for 2.5', () => {
    const { container } = render(<StarRating value={2.5} />)
    expect(filledWidth(container)).toBe(60)
  })

  it('clamps ratings above 5 and below 0', () => {
    const high = render(<StarRating value={7} />)
    expect(filledWidth(high.container)).toBe(120)
    cleanup()
    const low = render(<StarRating value={-1} />)
    expect(filledWidth(low.container)).toBe(0)
  })

  it('treats a rating that is not a number as 0', () => {
    const { container } = render(<StarRating value={Number.NaN} />)
    expect(filledWidth(container)).toBe(0)
  })

  it('has fixed dimensions of five stars of the given size', () => {
    const { container } = render(<StarRating value={3} size={16} />)
    const svg = container.querySelector('svg.vr-star-rating__stars')
    expect([svg?.getAttribute('width'), svg?.getAttribute('height')]).toEqual(['80', '16'])
  })

  it('hides its drawing from assistive technology', () => {
    const { container } = render(<StarRating value={3} />)
    expect(container.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true')
  })

  it('renders no inline style, so a strict Content Security Policy holds', () => {
    const { container } = render(<StarRating value={3.3} count={4} />)
    expect(container.querySelectorAll('[style]')).toHaveLength(0)
  })

  it('keeps the class names given beside its own', () => {
    const { container } = render(<StarRating value={3} className="mine" />)
    expect(container.firstElementChild?.className).toBe('vr-star-rating mine')
  })
})
