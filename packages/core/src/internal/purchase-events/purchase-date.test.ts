import { describe, expect, it } from 'vitest'
import { purchaseDateOf } from './purchase-date.ts'

describe('purchaseDateOf', () => {
  it('adds the seconds to a date-time given to the minute', () => {
    expect(purchaseDateOf('2026-01-02T10:00Z')).toBe('2026-01-02T10:00:00Z')
  })

  it('takes a date-time without an offset as UTC', () => {
    expect(purchaseDateOf('2026-01-02T10:00')).toBe('2026-01-02T10:00:00Z')
  })

  it("keeps the shop's offset, written ±HH:MM", () => {
    expect(purchaseDateOf('2026-01-02T10:00:00+02:00')).toBe('2026-01-02T10:00:00+02:00')
    expect(purchaseDateOf('2026-01-02T10:00:00+0200')).toBe('2026-01-02T10:00:00+02:00')
    expect(purchaseDateOf('2026-01-02T10:00-0330')).toBe('2026-01-02T10:00:00-03:30')
    expect(purchaseDateOf('2026-01-02T10:00+01')).toBe('2026-01-02T10:00:00+01:00')
  })

  it('writes the fraction of a second as milliseconds after a point', () => {
    expect(purchaseDateOf('2026-01-02T10:00:00,25+02:00')).toBe('2026-01-02T10:00:00.250+02:00')
    expect(purchaseDateOf('2026-01-02T10:00:00.123456789Z')).toBe('2026-01-02T10:00:00.123Z')
  })

  it('writes a Date in UTC with Z', () => {
    expect(purchaseDateOf(new Date(Date.UTC(2026, 0, 2, 8, 0, 0, 5)))).toBe('2026-01-02T08:00:00.005Z')
  })

  it('reads nothing from what is not a date-time', () => {
    for (const value of [
      '2026-01-02',
      '2026-01-02T10',
      '20260102T1000Z',
      '2026-02-30T10:00Z',
      '2026-01-02T24:00Z',
      '2026-01-02T10:00+24:00',
      'yesterday',
      new Date(Number.NaN),
      new Date(Date.UTC(10_000, 0, 1)),
      1767348000000,
      null,
    ]) {
      expect(purchaseDateOf(value), String(value)).toBeUndefined()
    }
  })
})
