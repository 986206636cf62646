import { describe, expect, it } from 'vitest'
import { listViewPage, type ViewParams } from './view-page.ts'

function refusedCursor(): Error {
  return Object.assign(new Error('cursor is not valid'), { field: 'cursor' })
}

describe('listViewPage', () => {
  it('asks for the sort, rates and limit of the view', async () => {
    const asked: ViewParams[] = []
    await listViewPage(async (params) => asked.push(params), { sort: 'lowest', rates: [1, 2] }, 5)
    expect(asked).toEqual([{ limit: 5, sort: ['review_rate'], review_rate: [1, 2] }])
  })

  it('goes on from the cursor of the view', async () => {
    const { page, cursor } = await listViewPage(
      async (params) => params.cursor,
      { sort: 'newest', rates: [], cursor: 'c2' },
      10,
    )
    expect(page).toBe('c2')
    expect(cursor).toBe('c2')
  })

  it('shows the first page when the cursor is refused', async () => {
    const list = async (params: ViewParams) => {
      if (params.cursor !== undefined) throw refusedCursor()
      return 'first'
    }
    expect(await listViewPage(list, { sort: 'newest', rates: [], cursor: 'old' }, 10)).toEqual({
      page: 'first',
      cursor: undefined,
    })
  })

  it('lets any other failure through', async () => {
    const list = async () => {
      throw new Error('503')
    }
    await expect(listViewPage(list, { sort: 'newest', rates: [], cursor: 'c' }, 10)).rejects.toThrow('503')
  })
})
