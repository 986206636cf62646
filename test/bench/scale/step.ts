import type { Measured } from './lib.ts'

/** What every step of `pnpm bench:scale` is given, and how it formats its rows. */
export interface StepContext {
  products: number
  reviews: number
  /** Requests per second of the rate-limited runs; 0: none. */
  rate: number
  /** Product pages of the `next build` step. */
  nextProducts: number
  /** Copy the children's output to stderr as it comes. */
  echo: boolean
}

/** What a step prints: rows of the main table, and lines of its own below it. */
export interface StepResult {
  rows: string[]
  notes: string[]
}

/** The header of the main table. */
export const TABLE_HEADER = [
  '| step | API calls (× LB) | wall time, no rate limit | wall time, sandbox at {rate} req/s | peak RSS (largest process / process tree) | after 300 new reviews |',
  '|---|---|---|---|---|---|',
]

/** One line of progress, on stderr so that stdout keeps the table. */
export function progress(message: string): void {
  process.stderr.write(`[bench:scale ${new Date().toISOString().slice(11, 19)}] ${message}\n`)
}

export const seconds = (value: number) => `${value.toFixed(1)} s`
export const mib = (value: number) => `${value} MiB`
export const thousands = (value: number) => value.toLocaleString('en')

/** A Markdown table row. */
export function row(cells: readonly (string | number)[]): string {
  return `| ${cells.join(' | ')} |`
}

/** `calls (x.xx × LB)`. */
export function versus(calls: number, bound: number): string {
  return `${thousands(calls)} (${(calls / bound).toFixed(3)} × LB ${thousands(bound)})`
}

/** The wall time of a run without a rate limit, with the part of it spent waiting for the API. */
export function unlimitedCell(run: Measured): string {
  return `${seconds(run.seconds)} (API ${seconds(run.apiSeconds)})`
}

/**
 * The wall time of a run with the sandbox at `rate` requests per second, next to its goal: 1.1 × LB/rate
 * plus the run's own time, which is the run without a rate limit less its wait for the API.
 */
export function limitedCell(
  limited: Measured | undefined,
  unlimited: Measured,
  calls: number,
  bound: number,
  rate: number,
): string {
  if (limited === undefined) return 'not run'
  const own = Math.max(0, unlimited.seconds - unlimited.apiSeconds)
  const goal = (1.1 * bound) / rate + own
  return (
    `${seconds(limited.seconds)} for ${thousands(calls)} calls (goal 1.1 × LB/${rate} + own time = ` +
    `${seconds((1.1 * bound) / rate)} + ${seconds(own)} = ${seconds(goal)}: ${limited.seconds <= goal ? 'within' : 'over'})`
  )
}

/**
 * The library's share of a build: its wall time and peak RSS against the same pages built without
 * reviews (the components and the config removed), as a ratio; the goal is at most 1.15 ×.
 */
export function ratioNote(name: string, withReviews: Measured, without: Measured): string {
  const ratio = withReviews.seconds / without.seconds
  return (
    `${name} with reviews ${seconds(withReviews.seconds)} (API ${seconds(withReviews.apiSeconds)}), without reviews ` +
    `${seconds(without.seconds)}: ${ratio.toFixed(2)} × the build without reviews (goal ≤ 1.15 ×: ` +
    `${ratio <= 1.15 ? 'within' : 'over'}); peak RSS ${mib(withReviews.peakProcessMiB)} against ${mib(without.peakProcessMiB)}`
  )
}
