// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { brandRating } from '../../../../test/fixtures/reviews.ts'
import { ShopRating } from './ShopRating.tsx'

afterEach(cleanup)

const shop = brandRating({ shop_key: 'lyon' })

describe('ShopRating', () => {
  it('is headed as customer reviews without a shop name', () => {
    render(<ShopRating rating={shop} />)
    expect(screen.getByRole('heading', { level: 2, name: 'Customer reviews' })).toBeTruthy()
  })

  it('names the shop in the heading when a name is given', () => {
    render(<ShopRating rating={shop} name="Lyon Part-Dieu" headingLevel={4} />)
    expect(screen.getByRole('heading', { level: 4, name: 'Reviews of Lyon Part-Dieu' })).toBeTruthy()
  })

  it('shows the one-year and five-year statistics', () => {
    const { container } = render(<ShopRating rating={shop} />)
    expect(
      container.querySelectorAll('.vr-rating-period--one-year, .vr-rating-period--five-year'),
    ).toHaveLength(2)
    expect(container.firstElementChild?.className).toBe('vr-shop-rating')
  })
})
