import { describe, expect, it, vi } from 'vitest'
import { cursorSignerFromSecret } from '../cursor/signed-cursor.ts'
import { loadBrandView } from './brand-view.ts'

const signer = cursorSignerFromSecret('a secret of the tests')

describe('loadBrandView', () => {
  it('gives the statistics of the shop asked for and its page of reviews, cursors signed', async () => {
    const list = vi.fn(async () => ({
      data: [
        { shop_key: '', average: 4.2 },
        { shop_key: 'paris', average: 4.8 },
      ],
    }))
    const reviewsList = vi.fn(async () => ({ data: [{ review_id: 'x' }], nextCursor: 'n1' }))
    const client = { brands: { list, reviews: { list: reviewsList } } } as never
    const shown = await loadBrandView({
      client,
      shopKey: 'paris',
      view: { sort: 'newest', rates: [] },
      limit: 5,
      signer,
    })
    expect(list).toHaveBeenCalledWith({ shop_key: ['paris'] })
    expect(reviewsList).toHaveBeenCalledWith(expect.objectContaining({ shop_key: ['paris'], limit: 5 }))
    expect(shown.rating).toMatchObject({ average: 4.8 })
    const brandScope = { kind: 'brand', id: 'paris', sort: 'newest', rates: [], limit: 5 } as const
    expect(await signer.open(brandScope, shown.nextCursor)).toBe('n1')
  })
})
