import { describe, expect, it } from 'vitest'
import { parseIsoDate, Query } from './query.ts'

const query = (search: string, allowed: string[]) => new Query(new URL(`http://x/p?${search}`), allowed)

describe('Query', () => {
  it('refuses an unknown parameter, naming it', () => {
    expect(() => query('limt=5', ['limit'])).toThrow(expect.objectContaining({ field: 'limt', status: 400 }))
  })

  it('reads a comma list, trimmed, in order without repeats', () => {
    expect(query('a=x,%20y,x', ['a']).list('a')).toEqual(['x', 'y'])
  })

  it('reads identifiers exactly as sent, whitespace included, in order without repeats', () => {
    expect(query('a=%20x,TEE%2042%20,x,%20x', ['a']).identifiers('a')).toEqual([' x', 'TEE 42 ', 'x'])
  })

  it('refuses an identifier made of whitespace only', () => {
    expect(() => query('a=x,%20', ['a']).identifiers('a')).toThrow(expect.objectContaining({ field: 'a' }))
  })

  it('refuses empty items in a list', () => {
    expect(() => query('a=x,,y', ['a']).list('a')).toThrow(expect.objectContaining({ field: 'a' }))
  })

  it('gives the same canonical form to the same request written differently', () => {
    const one = query('review_rate=5,4&limit=10', ['review_rate', 'limit'])
    const two = query('limit=10&review_rate=4,5', ['review_rate', 'limit'])
    for (const q of [one, two]) {
      q.list('review_rate')
      q.integer('limit', 1, 200, 10)
    }
    expect(one.canonical).toEqual(two.canonical)
  })

  it('refuses a boolean other than true or false', () => {
    expect(() => query('b=yes', ['b']).boolean('b')).toThrow(expect.objectContaining({ field: 'b' }))
  })
})

describe('parseIsoDate', () => {
  it('reads dates as midnight UTC and date-times without offset as UTC', () => {
    expect(parseIsoDate('2025-03-01')).toBe(Date.UTC(2025, 2, 1))
    expect(parseIsoDate('2025-03-01T10:30:00')).toBe(Date.UTC(2025, 2, 1, 10, 30))
  })

  it('honours offsets, also a + that arrived as a space', () => {
    expect(parseIsoDate('2025-03-01T10:00:00+02:00')).toBe(Date.UTC(2025, 2, 1, 8))
    expect(parseIsoDate('2025-03-01T10:00:00 02:00')).toBe(Date.UTC(2025, 2, 1, 8))
  })

  it('reads date-times without seconds and offsets written ±hh', () => {
    expect(parseIsoDate('2025-03-01T10:00Z')).toBe(Date.UTC(2025, 2, 1, 10))
    expect(parseIsoDate('2025-03-01T10:00 02')).toBe(Date.UTC(2025, 2, 1, 8))
  })

  it('refuses impossible dates and other formats', () => {
    expect(parseIsoDate('2025-02-30')).toBeUndefined()
    expect(parseIsoDate('01/03/2025')).toBeUndefined()
    expect(parseIsoDate('2025-03-01T25:00:00Z')).toBeUndefined()
  })
})
