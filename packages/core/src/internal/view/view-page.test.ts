import { describe, expect, it } from 'vitest'
import type { CursorSigner } from '../cursor/signed-cursor.ts'
import { signedViewPage, type ViewParams } from './view-page.ts'

function refusedCursor(): Error {
  return Object.assign(new Error('cursor is not valid'), { field: 'cursor' })
}

// Opens and signs every cursor as it is, so that the tests see what reaches `list`.
const signer: CursorSigner = {
  sign: (async (_scope, cursor) => cursor ?? undefined) as CursorSigner['sign'],
  open: async (_scope, signed) => signed ?? undefined,
}
const scope = (limit: number) => ({ kind: 'product', id: 'SKU-1', limit }) as const

describe('signedViewPage', () => {
  it('asks for the sort, rates and limit of the view', async () => {
    const asked: ViewParams[] = []
    const list = async (params: ViewParams) => {
      asked.push(params)
      return { data: [] }
    }
    await signedViewPage(list, { sort: 'lowest', rates: [1, 2] }, scope(5), signer)
    expect(asked).toEqual([{ limit: 5, sort: ['review_rate'], review_rate: [1, 2] }])
  })

  it('goes on from the cursor of the view', async () => {
    const list = async (params: ViewParams) => ({ data: [params.cursor] })
    const page = await signedViewPage(list, { sort: 'newest', rates: [], cursor: 'c2' }, scope(10), signer)
    expect(page.data).toEqual(['c2'])
    expect(page.cursor).toBe('c2')
  })

  it('shows the first page when the cursor is refused', async () => {
    const list = async (params: ViewParams) => {
      if (params.cursor !== undefined) throw refusedCursor()
      return { data: ['first'] }
    }
    const page = await signedViewPage(list, { sort: 'newest', rates: [], cursor: 'old' }, scope(10), signer)
    expect(page).toMatchObject({ data: ['first'], cursor: undefined })
  })

  it('lets any other failure through', async () => {
    const list = async () => {
      throw new Error('503')
    }
    await expect(
      signedViewPage(list, { sort: 'newest', rates: [], cursor: 'c' }, scope(10), signer),
    ).rejects.toThrow('503')
  })
})
