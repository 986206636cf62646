import { describe, expect, it } from 'vitest'
import type { Measured } from './lib.ts'
import { medianRun, repeatNote } from './step.ts'

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
