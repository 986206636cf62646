import { describe, expect, it } from 'vitest'
import { FaultInjector, parseFaultRules } from './faults.ts'
import { HttpError } from './http-error.ts'

function errorOf(fn: () => unknown): HttpError {
  try {
    fn()
  } catch (error) {
    if (error instanceof HttpError) return error
  }
  throw new Error('expected an HttpError')
}

describe('parseFaultRules', () => {
  it('fills in rate 1 by default', () => {
    expect(parseFaultRules([{ operation: '*', status: 500 }])).toEqual([
      { operation: '*', status: 500, rate: 1 },
    ])
  })

  it('names the member of the rule that is wrong', () => {
    expect(errorOf(() => parseFaultRules([{ operation: 'products.list', status: 200 }])).field).toBe(
      '[0].status',
    )
    expect(errorOf(() => parseFaultRules([{ operation: 'nope', status: 500 }])).field).toBe('[0].operation')
    expect(errorOf(() => parseFaultRules([{ operation: '*', status: 500, sttus: 1 }])).field).toBe(
      '[0].sttus',
    )
  })

  it('refuses a rule that would do nothing', () => {
    expect(errorOf(() => parseFaultRules([{ operation: '*' }])).status).toBe(400)
  })
})

describe('FaultInjector', () => {
  it('hits only the operation a rule names', () => {
    const faults = new FaultInjector(1)
    faults.set(parseFaultRules([{ operation: 'products.list', status: 500 }]))
    expect(faults.pick('brands.list')).toBeUndefined()
    expect(faults.pick('products.list')?.status).toBe(500)
  })

  it('stops hitting once a rule has hit `count` requests', () => {
    const faults = new FaultInjector(1)
    faults.set(parseFaultRules([{ operation: '*', status: 503, count: 2 }]))
    expect([1, 2, 3].map(() => faults.pick('media')?.status)).toEqual([503, 503, undefined])
  })

  it('hits about `rate` of the requests, the same ones for the same seed', () => {
    const run = () => {
      const faults = new FaultInjector(7)
      faults.set(parseFaultRules([{ operation: '*', status: 500, rate: 0.3 }]))
      return Array.from({ length: 1000 }, () => faults.pick('media') !== undefined)
    }
    const hits = run()
    const count = hits.filter(Boolean).length
    expect(count).toBeGreaterThan(220)
    expect(count).toBeLessThan(380)
    expect(run()).toEqual(hits)
  })
})
