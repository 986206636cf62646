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
  /**
   * Builds of each kind (ours, hand-written, without reviews) in the `astro` and `next` steps, taken in
   * turn; the tables show each kind's median run (`--repeat`).
   */
  repeat: number
}

/** What a step prints: rows of the main table, rows of the baseline table, and lines of its own below. */
export interface StepResult {
  rows: string[]
  /** Rows of {@link BASELINE_HEADER}: the build against the hand-written and the plain baselines. */
  baselines?: string[]
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
 * A build's wall time and peak RSS against the same pages built without reviews (the components and the
 * config removed), as a ratio. Not a goal: the library's share of a build is judged against the
 * hand-written baseline with the same markup (the table of {@link BASELINE_HEADER}).
 */
export function ratioNote(name: string, withReviews: Measured, without: Measured): string {
  const ratio = withReviews.seconds / without.seconds
  return (
    `${name} with reviews ${seconds(withReviews.seconds)} (API ${seconds(withReviews.apiSeconds)}), without reviews ` +
    `${seconds(without.seconds)}: ${ratio.toFixed(2)} × the build without reviews (not a goal: see the ` +
    `hand-written baseline); peak RSS ${mib(withReviews.peakProcessMiB)} against ${mib(without.peakProcessMiB)}`
  )
}

/**
 * The run of median wall time among a build's repeated runs (the lower of the two middle ones for an
 * even count): the one the tables show, its API time, CPU and peak memory with it.
 */
export function medianRun<T extends Measured>(runs: readonly T[]): T {
  if (runs.length === 0) throw new Error('medianRun: no run')
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds)
  return sorted[Math.floor((sorted.length - 1) / 2)] as T
}

/**
 * Every run of each build when they were repeated (`--repeat`), in the order they ran, and the median the
 * tables show; nothing for a single run each.
 */
export function repeatNote(name: string, runs: Record<string, readonly Measured[]>): string[] {
  if (Object.values(runs).every((list) => list.length < 2)) return []
  const each = (run: Measured) =>
    `${seconds(run.seconds)}${run.apiSeconds > 0 ? ` (API ${seconds(run.apiSeconds)})` : ''} ${mib(run.peakProcessMiB)}`
  return [
    `${name}, each build in turn (the tables show the median run): ${Object.entries(runs)
      .map(
        ([label, list]) =>
          `${label} ${list.map(each).join(', ')} (median ${seconds(medianRun(list).seconds)})`,
      )
      .join('; ')}`,
  ]
}

/** The header of the table of each framework's build against its two baselines. */
export const BASELINE_HEADER = [
  '| build of N product pages | ours: wall time (API, CPU of its processes), peak RSS of the largest process | hand-written baseline: wall time (CPU), peak RSS | without reviews: the same | ours / hand-written (goal: time ≤ 1.10 × hand-written + API time at LB; memory ≤ 1.10 ×) | ours / without reviews (not a goal) | average page (HTML file): ours / hand-written / without reviews | same markup as ours |',
  '|---|---|---|---|---|---|---|---|',
]

/** What a step measured of its build and of the two baselines beside it. */
export interface BaselineComparison {
  name: string
  ours: Measured
  /**
   * The calls of our build were at the lower bound: its API time is the goal's allowance. The `astro` and
   * `next` steps take it from the sandbox (the time it spent serving the build's calls), not from the
   * build's clock, which counts an answer that waits while the build is busy as the API's.
   */
  hand: Measured
  plain: Measured
  pageBytes: { ours: number; hand: number; plain: number }
  markup: MarkupComparison
  /**
   * Our build again with the sandbox at `rate` requests per second (`--rate`), when it ran: its goal is
   * 1.10 × the hand-written build plus LB/rate, the least time the API lets any build make the lower bound
   * of calls in. There the build's own work runs while it waits for the API, as against a remote API.
   */
  limited?: { run: Measured; bound: number; rate: number } | undefined
}

const build = (run: Measured) =>
  `${seconds(run.seconds)} (${run.apiSeconds > 0 ? `API ${seconds(run.apiSeconds)}, ` : ''}CPU ${seconds(run.cpuSeconds)}), ${mib(run.peakProcessMiB)}`

/**
 * A build against the hand-written one, by the goal: its time against 1.10 × the hand-written build's plus
 * its own API time (`paced`: what a paced run adds inside the parentheses), its peak memory against
 * 1.10 × the hand-written build's.
 */
function againstHand(ours: Measured, hand: Measured, paced = ''): string {
  const goal = 1.1 * hand.seconds + ours.apiSeconds
  const memory = ours.peakProcessMiB / hand.peakProcessMiB
  return (
    `time ${(ours.seconds / hand.seconds).toFixed(2)} × (${seconds(ours.seconds)} against 1.10 × ${seconds(hand.seconds)} + ` +
    `${seconds(ours.apiSeconds)} = ${seconds(goal)}: ${ours.seconds <= goal ? 'within' : 'over'}${paced}); ` +
    `memory ${memory.toFixed(2)} × (${memory <= 1.1 ? 'within' : 'over'})`
  )
}

/**
 * A rebuild over the store the first build left, nothing published since (the incremental sync's one
 * call, and the summaries): what each deploy after a site's first one costs, by the same goal as the
 * first build, against the same hand-written build. Its median run and the hand-written median.
 */
export function rebuildNote(name: string, rebuild: Measured, hand: Measured): string {
  return (
    `${name}, rebuild over the kept store (no new review): ${build(rebuild)}; against the hand-written ` +
    `build: ${againstHand(rebuild, hand)}`
  )
}

/** A row of the baseline table. */
export function baselineRow(comparison: BaselineComparison): string {
  const { ours, hand, plain, pageBytes, markup, limited } = comparison
  const paced = ({ run, bound, rate }: NonNullable<typeof limited>) => {
    const least = bound / rate
    const within = 1.1 * hand.seconds + least
    return (
      `; at ${rate} requests/s: ${seconds(run.seconds)} against 1.10 × ${seconds(hand.seconds)} + ` +
      `LB/${rate} ${seconds(least)} = ${seconds(within)}: ${run.seconds <= within ? 'within' : 'over'}`
    )
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  return row([
    comparison.name,
    build(ours),
    build(hand),
    build(plain),
    againstHand(ours, hand, limited === undefined ? '' : paced(limited)),
    `time ${(ours.seconds / plain.seconds).toFixed(2)} ×, memory ${(ours.peakProcessMiB / plain.peakProcessMiB).toFixed(2)} ×`,
    `${kb(pageBytes.ours)} / ${kb(pageBytes.hand)} / ${kb(pageBytes.plain)}`,
    markup.differing.length === 0
      ? `yes, ${thousands(markup.compared)} pages compared`
      : `**no**: ${thousands(markup.differing.length)} of ${thousands(markup.compared)} pages differ (first: ${markup.differing[0]})`,
  ])
}

/** Pages whose reviews' markup was compared, and those that differ (with where). */
export interface MarkupComparison {
  compared: number
  differing: string[]
}

/**
 * The reviews' markup of a built page, from `<div class="vr-product-reviews"` to the end of `<main>`, with
 * comments (React's text separators, Suspense marks) and the whitespace between elements left out.
 */
export function reviewsMarkup(html: string): string | undefined {
  const start = html.indexOf('<div class="vr-product-reviews"')
  const end = html.indexOf('</main>', start)
  if (start < 0 || end < 0) return undefined
  return html
    .slice(start, end)
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/>\s+</g, '><')
    .replace(/\s+/g, ' ')
}

/**
 * The reviews' markup of every `step`th page of `names` (at most `sample` of them), as `read(name)` gives
 * each page's HTML: taken from our build before anything changes its pages.
 */
export async function sampleMarkup(
  names: readonly string[],
  read: (name: string) => Promise<string>,
  sample = 500,
): Promise<Map<string, string | undefined>> {
  const step = Math.max(1, Math.floor(names.length / sample))
  const found = new Map<string, string | undefined>()
  for (let i = 0; i < names.length && found.size < sample; i += step) {
    const name = names[i] as string
    found.set(name, reviewsMarkup(await read(name)))
  }
  return found
}

/** Compares the markup sampled from our build with the same pages of a baseline. */
export async function compareMarkup(
  ours: ReadonlyMap<string, string | undefined>,
  read: (name: string) => Promise<string>,
): Promise<MarkupComparison> {
  const differing: string[] = []
  for (const [name, a] of ours) {
    const b = reviewsMarkup(await read(name))
    if (a === undefined || b === undefined) {
      differing.push(`${name}: ${a === undefined ? 'ours has' : 'the baseline has'} no reviews' markup`)
    } else if (a !== b) {
      const at = [...a].findIndex((char, index) => char !== b[index])
      differing.push(
        `${name} from character ${at}: ours \`${a.slice(at, at + 60)}\`, hand \`${b.slice(at, at + 60)}\``,
      )
    }
  }
  return { compared: ours.size, differing }
}

/** The largest processes of each build (what each ran and its peak RSS): where the memory goes. */
export function processesNote(name: string, builds: Record<string, Measured>): string {
  const largest = (run: Measured) =>
    run.processes
      .slice(0, 3)
      .map((process) => `${process.script} ${mib(process.peakMiB)}`)
      .join(', ')
  return `${name}, largest processes (of ${Object.values(builds)
    .map((run) => run.processes.length)
    .join(' / ')}): ${Object.entries(builds)
    .map(([label, run]) => `${label}: ${largest(run)}`)
    .join('; ')}`
}
