import { describe, expect, it } from 'vitest'
import type { Measured } from './lib.ts'
import { nextPhases, nextPhasesNote } from './next-phases.ts'

// As `next build` 16 writes it: ticks and durations in colour, the pages' progress on one line with carriage returns.
const BUILD = [
  '\u001b[32m✓\u001b[39m Compiled successfully in 15.9s',
  '  Running TypeScript ...',
  '  Finished TypeScript in 5.4s ...',
  '  Collecting page data using 1 worker ...',
  '  Generating static pages using 1 worker (0/1004) ...',
  '  Generating static pages using 1 worker (251/1004) \r  Generating static pages using 1 worker (502/1004) \r',
  '\u001b[32m✓\u001b[39m Generating static pages using 1 worker (1004/1004) in 5.1min',
  '  Finalizing page optimization ...',
].join('\n')

function run(stdout: string): Measured {
  return {
    seconds: 1,
    apiSeconds: 0,
    cpuSeconds: 1,
    peakProcessMiB: 1,
    peakTreeMiB: 1,
    processes: [],
    code: 0,
    stdout,
    stderr: '',
  }
}

describe('nextPhases', () => {
  it('reads the compilation, the type check and the static pages, in seconds', () => {
    expect(nextPhases(BUILD)).toEqual({ compile: 15.9, typescript: 5.4, pages: 306 })
  })

  it('reads milliseconds, and leaves out a phase the build did not print', () => {
    expect(nextPhases('✓ Compiled successfully in 950ms\n')).toEqual({
      compile: 0.95,
      typescript: undefined,
      pages: undefined,
    })
  })
})

describe('nextPhasesNote', () => {
  it('gives each build its phases, a question mark for one it did not print', () => {
    expect(nextPhasesNote('next build', { ours: run(BUILD), 'hand-written': run('') })).toBe(
      'next build, phases as next build timed them (compilation / TypeScript / static pages): ' +
        'ours 15.9 / 5.4 / 306.0 s; hand-written ? / ? / ? s',
    )
  })
})
