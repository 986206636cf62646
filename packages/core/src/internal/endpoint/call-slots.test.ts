import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type CallSlotLimits, CallSlots } from './call-slots.ts'

const limits: CallSlotLimits = { maxConcurrency: 1, maxWait: 1000, maxWaiting: 10 }

/** Records the order in which acquisitions settle and what each got. */
function recorder() {
  const settled: string[] = []
  const track = (name: string, acquired: Promise<boolean>) =>
    acquired.then((slot) => {
      settled.push(`${name}:${slot ? 'slot' : 'none'}`)
    })
  return { settled, track }
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('CallSlots', () => {
  it('hands freed slots to the waiting requests in the order they came', async () => {
    const slots = new CallSlots()
    const { settled, track } = recorder()
    expect(await slots.acquire(limits)).toBe(true)
    const waits = ['a', 'b', 'c'].map((name) => track(name, slots.acquire(limits)))
    slots.release()
    slots.release()
    slots.release()
    await Promise.all(waits)
    expect(settled).toEqual(['a:slot', 'b:slot', 'c:slot'])
  })

  it('skips a request whose wait ran out and hands the slot to the next one', async () => {
    const slots = new CallSlots()
    const { settled, track } = recorder()
    await slots.acquire(limits)
    const early = track('early', slots.acquire({ ...limits, maxWait: 100 }))
    const late = track('late', slots.acquire(limits))
    await vi.advanceTimersByTimeAsync(100)
    expect(settled).toEqual(['early:none'])
    slots.release()
    await Promise.all([early, late])
    expect(settled).toEqual(['early:none', 'late:slot'])
    expect(slots.waiting).toBe(0)
  })

  it('skips waiters that ran out in the middle of the queue, keeping the order of the others', async () => {
    const slots = new CallSlots()
    const { settled, track } = recorder()
    await slots.acquire(limits)
    const waits = [
      track('a', slots.acquire(limits)),
      track('b', slots.acquire({ ...limits, maxWait: 50 })),
      track('c', slots.acquire({ ...limits, maxWait: 50 })),
      track('d', slots.acquire(limits)),
    ]
    await vi.advanceTimersByTimeAsync(50)
    slots.release()
    slots.release()
    await Promise.all(waits)
    expect(settled).toEqual(['b:none', 'c:none', 'a:slot', 'd:slot'])
  })

  it('refuses at once a request beyond maxWaiting waiting ones', async () => {
    const slots = new CallSlots()
    const { settled, track } = recorder()
    await slots.acquire(limits)
    const waits = ['a', 'b'].map((name) => track(name, slots.acquire({ ...limits, maxWaiting: 2 })))
    await track('c', slots.acquire({ ...limits, maxWaiting: 2 }))
    expect(settled).toEqual(['c:none'])
    expect(slots.waiting).toBe(2)
    slots.release()
    slots.release()
    await Promise.all(waits)
    expect(settled).toEqual(['c:none', 'a:slot', 'b:slot'])
  })

  it('no longer counts a request whose wait ran out against maxWaiting', async () => {
    const slots = new CallSlots()
    await slots.acquire(limits)
    const first = slots.acquire({ ...limits, maxWaiting: 1, maxWait: 100 })
    await vi.advanceTimersByTimeAsync(100)
    expect(await first).toBe(false)
    const second = slots.acquire({ ...limits, maxWaiting: 1 })
    expect(slots.waiting).toBe(1)
    slots.release()
    expect(await second).toBe(true)
  })

  it('refuses at once with maxWait 0', async () => {
    const slots = new CallSlots()
    await slots.acquire(limits)
    expect(await slots.acquire({ ...limits, maxWait: 0 })).toBe(false)
    expect(slots.waiting).toBe(0)
  })

  it('frees the slot when nobody waits, so that the next request gets it at once', async () => {
    const slots = new CallSlots()
    await slots.acquire(limits)
    slots.release()
    expect(await slots.acquire({ ...limits, maxWait: 0 })).toBe(true)
  })
})
