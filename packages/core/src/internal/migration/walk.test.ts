import { describe, expect, it } from 'vitest'
import { ValidationError } from '../base/errors.ts'
import { skipItems, takeItems } from './walk.ts'

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

const items = [
  { id: 1, p: 'a' },
  { id: 2, p: 'b' },
  { id: 3, p: 'a' },
  { id: 4, p: 'a' },
  { id: 5, p: 'b' },
]
const per = (item: { p: string }) => item.p

describe('skipItems', () => {
  it('passes over the first items of the walk', async () => {
    expect((await collect(skipItems(items, 3))).map((i) => i.id)).toEqual([4, 5])
  })

  it('passes over the first items of each group', async () => {
    expect((await collect(skipItems(items, 1, { per }))).map((i) => i.id)).toEqual([3, 4, 5])
  })

  it('walks an async source', async () => {
    async function* source() {
      yield* [1, 2, 3]
    }
    expect(await collect(skipItems(source(), 1))).toEqual([2, 3])
  })

  it('refuses a negative count', async () => {
    await expect(collect(skipItems(items, -1))).rejects.toThrow(ValidationError)
  })
})

describe('takeItems', () => {
  it('keeps the first items and stops pulling from the source', async () => {
    let pulled = 0
    async function* source() {
      for (const item of items) {
        pulled++
        yield item
      }
    }
    expect((await collect(takeItems(source(), 2))).map((i) => i.id)).toEqual([1, 2])
    expect(pulled).toBe(2)
  })

  it('keeps the first items of each group', async () => {
    expect((await collect(takeItems(items, 1, { per }))).map((i) => i.id)).toEqual([1, 2])
  })

  it('composes with skipItems into the legacy per-product window', async () => {
    const window = takeItems(skipItems(items, 1, { per }), 1, { per })
    expect((await collect(window)).map((i) => i.id)).toEqual([3, 5])
  })
})
