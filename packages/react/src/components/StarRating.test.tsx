// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import { StarRating } from './StarRating.tsx'

afterEach(cleanup)

function tenths(container: HTMLElement): string | null | undefined {
  return container.querySelector('.vr-stars')?.getAttribute('data-r')
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

  it('is one element of at most 150 bytes in English, its review count left out', () => {
    for (const value of [0, 2.3, 4.64, 4.65, 5]) {
      const html = renderToStaticMarkup(<StarRating value={value} />)
      expect(Buffer.byteLength(html), html).toBeLessThanOrEqual(150)
      expect(html).toMatch(/^<span [^<>]*>[^<>]*<\/span>$/)
    }
  })

  it('draws nothing itself: no SVG, no path, no inline style', () => {
    const html = renderToStaticMarkup(<StarRating value={3.3} count={4} className="mine" />)
    expect(html).not.toMatch(/<svg|<path|style=/i)
  })

  it('is exactly this markup, which styles.css draws', () => {
    expect(renderToStaticMarkup(<StarRating value={4.6} />)).toBe(
      '<span class="vr-stars" role="img" aria-label="4.6 out of 5" data-r="46">4.6/5</span>',
    )
  })

  it('gives the rating in tenths, rounded half up', () => {
    expect(tenths(render(<StarRating value={4.64} />).container)).toBe('46')
    cleanup()
    expect(tenths(render(<StarRating value={4.65} />).container)).toBe('47')
    cleanup()
    expect(tenths(render(<StarRating value={2.5} />).container)).toBe('25')
  })

  it('names the same tenth the stars show', () => {
    render(<StarRating value={4.65} />)
    expect(screen.getByRole('img', { name: '4.7 out of 5' }).getAttribute('data-r')).toBe('47')
  })

  it('clamps ratings above 5 and below 0', () => {
    expect(tenths(render(<StarRating value={7} />).container)).toBe('50')
    cleanup()
    expect(tenths(render(<StarRating value={-1} />).container)).toBe('0')
  })

  it('treats a rating that is not a number as 0', () => {
    render(<StarRating value={Number.NaN} />)
    expect(screen.getByRole('img', { name: '0.0 out of 5' }).getAttribute('data-r')).toBe('0')
  })

  it('reads as its rating in text where the stylesheet is not loaded', () => {
    const { container } = render(<StarRating value={4.6} locale="de" />)
    expect(container.textContent).toBe('4,6/5')
  })

  it('keeps the class names given beside its own', () => {
    const { container } = render(<StarRating value={3} className="mine" />)
    expect(container.firstElementChild?.className).toBe('vr-stars mine')
  })
})
