import { describe, expect, it } from 'vitest'
import { Random } from './random.ts'

const draw = (rng: Random, n: number) => Array.from({ length: n }, () => rng.uint32())

describe('Random', () => {
  it('gives the same sequence for the same seed and label', () => {
    expect(draw(new Random(7, 'a'), 20)).toEqual(draw(new Random(7, 'a'), 20))
  })

  it('gives different sequences for different seeds', () => {
    expect(draw(new Random(7, 'a'), 20)).not.toEqual(draw(new Random(8, 'a'), 20))
  })

  it('gives independent sequences for different labels of one seed', () => {
    expect(draw(new Random(7, 'a'), 20)).not.toEqual(draw(new Random(7, 'b'), 20))
  })

  it('keeps int() within its inclusive bounds and reaches both ends', () => {
    const rng = new Random(1)
    const seen = new Set(Array.from({ length: 2000 }, () => rng.int(3, 6)))
    expect([...seen].sort()).toEqual([3, 4, 5, 6])
  })

  it('never picks an item of zero weight', () => {
    const rng = new Random(2)
    const picks = new Set(
      Array.from({ length: 1000 }, () =>
        rng.weighted([
          ['a', 1],
          ['b', 0],
          ['c', 3],
        ]),
      ),
    )
    expect(picks.has('b')).toBe(false)
    expect(picks.size).toBe(2)
  })

  it('draws version 4 uuids', () => {
    const rng = new Random(3)
    for (let i = 0; i < 50; i++) {
      expect(rng.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    }
  })

  it('shuffles without losing or duplicating items', () => {
    const items = Array.from({ length: 30 }, (_, i) => i)
    const shuffled = new Random(4).shuffle(items)
    expect(shuffled).not.toEqual(items)
    expect([...shuffled].sort((a, b) => a - b)).toEqual(items)
  })
})
