import { describe, expect, it } from 'vitest'
import { sharedPromise, singleFlight } from './single-flight.ts'

/** A promise settled from outside, and how many times it was started. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: Error) => void
  const promise = new Promise<T>((yes, no) => {
    resolve = yes
    reject = no
  })
  return { promise, resolve, reject }
}

describe('singleFlight', () => {
  it('gives concurrent callers of one key the promise the first one started', async () => {
    const flight = singleFlight<string, number>()
    const one = deferred<number>()
    let starts = 0
    const start = () => {
      starts++
      return one.promise
    }
    const a = flight.run('k', start)
    const b = flight.run('k', start)
    expect(b).toBe(a)
    one.resolve(7)
    expect(await Promise.all([a, b])).toEqual([7, 7])
    expect(starts).toBe(1)
  })

  it('keeps keys apart', async () => {
    const flight = singleFlight<string, string>()
    const [a, b] = await Promise.all([flight.run('a', async () => 'A'), flight.run('b', async () => 'B')])
    expect([a, b]).toEqual(['A', 'B'])
  })

  it("starts again after a settled run when it keeps promises for the flight only ('flight')", async () => {
    const flight = singleFlight<string, number>('flight')
    let starts = 0
    await flight.run('k', async () => ++starts)
    await Promise.resolve()
    expect(flight.get('k')).toBeUndefined()
    expect(await flight.run('k', async () => ++starts)).toBe(2)
  })

  it("keeps a resolved promise and drops a rejected one ('success')", async () => {
    const flight = singleFlight<string, number>('success')
    await expect(flight.run('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down')
    await Promise.resolve()
    expect(flight.get('k')).toBeUndefined()
    let starts = 0
    await flight.run('k', async () => ++starts)
    expect(await flight.run('k', async () => ++starts)).toBe(1)
  })

  it('works over a WeakMap with object keys', async () => {
    const flight = singleFlight<object, number>('flight', new WeakMap())
    const key = {}
    const one = deferred<number>()
    const a = flight.run(key, () => one.promise)
    expect(flight.run(key, async () => 0)).toBe(a)
    one.resolve(1)
    expect(await a).toBe(1)
  })
})

describe('sharedPromise', () => {
  it('runs once for every caller and again after a failure', async () => {
    let starts = 0
    const fail = deferred<number>()
    const get = sharedPromise(() => (++starts === 1 ? fail.promise : Promise.resolve(starts)))
    const first = get()
    expect(get()).toBe(first)
    fail.reject(new Error('once'))
    await expect(first).rejects.toThrow('once')
    await Promise.resolve()
    expect(await get()).toBe(2)
    expect(await get()).toBe(2)
    expect(starts).toBe(2)
  })
})
