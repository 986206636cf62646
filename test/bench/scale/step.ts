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
