import { describe, expect, it } from 'vitest'
import { decodeCursor, encodeCursor, fingerprint, type Keyed, keyComparator, paginate } from './cursor.ts'
import { HttpError } from './http-error.ts'

const print = fingerprint(['products.reviews.list', [['limit', '10']]])

function cursorError(fn: () => unknown): HttpError | undefined {
  try {
    fn()
  } catch (error) {
    return error instanceof HttpError ? error : undefined
  }
  return undefined
}

describe('cursors', () => {
  it('decode to the position they were encoded with', () => {
    const cursor = encodeCursor(print, { direction: 'before', key: [1700000000000, 'abc'] })
    expect(decodeCursor(cursor, print, ['number', 'string'])).toEqual({
      direction: 'before',
      key: [1700000000000, 'abc'],
    })
  })

  it('are URL-safe', () => {
    expect(encodeCursor(print, { direction: 'after', key: ['é/ü?&=', 3] })).toMatch(/^[A-Za-z0-9_-]+$/)
  })

  it('are refused for another limit, sort or filter', () => {
    const cursor = encodeCursor(print, { direction: 'after', key: [1, 'a'] })
    const other = fingerprint(['products.reviews.list', [['limit', '20']]])
    const error = cursorError(() => decodeCursor(cursor, other, ['number', 'string']))
    expect(error).toMatchObject({ status: 400, code: 'invalid_cursor', field: 'cursor' })
  })

  it('are refused when they do not decode', () => {
    expect(cursorError(() => decodeCursor('not a cursor!', print, ['number']))?.code).toBe('invalid_cursor')
    expect(cursorError(() => decodeCursor('e30', print, ['number']))?.code).toBe('invalid_cursor')
  })

  it('are refused when their key does not fit the sort', () => {
    const cursor = encodeCursor(print, { direction: 'after', key: ['a', 'b'] })
    expect(cursorError(() => decodeCursor(cursor, print, ['number', 'string']))?.code).toBe('invalid_cursor')
  })

  it('give different fingerprints to different requests', () => {
    expect(fingerprint(['a', [['limit', '10']]])).not.toBe(fingerprint(['a', [['limit', '11']]]))
  })
})

describe('paginate', () => {
  const compare = keyComparator([false])
  const items: Keyed<number>[] = Array.from({ length: 7 }, (_, i) => ({ item: i, key: [i * 10] }))

  it('starts at the beginning, with a next key and no previous key', () => {
    expect(paginate(items, compare, 3)).toEqual({ items: [0, 1, 2], next: [20] })
  })

  it('continues strictly after a key', () => {
    expect(paginate(items, compare, 3, { direction: 'after', key: [20] })).toEqual({
      items: [3, 4, 5],
      next: [50],
      prev: [30],
    })
  })

  it('ends with no next key on the last page', () => {
    expect(paginate(items, compare, 3, { direction: 'after', key: [50] })).toEqual({ items: [6], prev: [60] })
  })

  it('goes back to the items just before a key', () => {
    expect(paginate(items, compare, 3, { direction: 'before', key: [30] })).toEqual({
      items: [0, 1, 2],
      next: [20],
    })
  })

  it('resumes after a key that is no longer in the list', () => {
    expect(paginate(items, compare, 2, { direction: 'after', key: [25] }).items).toEqual([3, 4])
  })

  it('sorts descending where asked', () => {
    const descending = keyComparator([true, false])
    expect(descending([2, 'a'], [1, 'b'])).toBeLessThan(0)
    expect(descending([1, 'a'], [1, 'b'])).toBeLessThan(0)
  })
})
