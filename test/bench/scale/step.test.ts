import { describe, expect, it } from 'vitest'
import type { Measured } from './lib.ts'
import { medianRun, rebuildNote, repeatNote } from './step.ts'

function run(seconds: number, apiSeconds = 0): Measured {
  return {
    seconds,
    apiSeconds,
    cpuSeconds: seconds,
    peakProcessMiB: 100,
    peakTreeMiB: 100,
    processes: [],
    code: 0,
    stdout: '',
    stderr: '',
  }
}

describe('medianRun', () => {
  it('takes the run of median wall time, the lower middle one for an even count', () => {
    const [a, b, c, d] = [run(30), run(10), run(20), run(40)]
    expect(medianRun([a, b, c])).toBe(c)
    expect(medianRun([a, b, c, d])).toBe(c)
    expect(medianRun([d])).toBe(d)
    expect(() => medianRun([])).toThrow('no run')
  })
})

describe('repeatNote', () => {
  it('says nothing for one run each', () => {
    expect(repeatNote('astro build', { ours: [run(1)], hand: [run(2)] })).toEqual([])
  })

  it('lists every run in order and the median of each build', () => {
    const [note] = repeatNote('astro build', {
      ours: [run(23.4, 4.8), run(27.04, 4.5), run(29.2, 4.3)],
      'hand-written': [run(13.3), run(15.5)],
    })
    expect(note).toBe(
      'astro build, each build in turn (the tables show the median run): ours 23.4 s (API 4.8 s) 100 MiB, ' +
        '27.0 s (API 4.5 s) 100 MiB, 29.2 s (API 4.3 s) 100 MiB (median 27.0 s); hand-written 13.3 s 100 MiB, ' +
        '15.5 s 100 MiB (median 13.3 s)',
    )
  })
})

describe('rebuildNote', () => {
  it('judges a rebuild by the goal: 1.10 × the hand-written build plus its own API time, memory 1.10 ×', () => {
    expect(rebuildNote('astro build', run(25, 0.5), run(22.5))).toBe(
      'astro build, rebuild over the kept store (no new review): 25.0 s (API 0.5 s, CPU 25.0 s), 100 MiB; ' +
        'against the hand-written build: time 1.11 × (25.0 s against 1.10 × 22.5 s + 0.5 s = 25.3 s: within); ' +
        'memory 1.00 × (within)',
    )
    const heavy = { ...run(26, 0.5), peakProcessMiB: 111 }
    expect(rebuildNote('astro build', heavy, run(22.5))).toContain('= 25.3 s: over); memory 1.11 × (over)')
  })
})
