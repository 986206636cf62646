/**
 * The `sync` step: a full sync of R/4, R/2 and R reviews into a memory store (up to 100,000) and into an SQLite store,
 * each in a process of its own: its peak RSS, and the memory the store keeps once the sync is over (heap
 * and buffers after a full garbage collection, which the peak RSS, left to the collector's pace, only
 * bounds). The slope of the kept memory between R/4 and R is the cost of one more review, from which
 * the sync of 1,000,000 reviews is extrapolated; `--reviews 1000000` measures it.
 */
import { mkdtemp, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Measured, measure, SOURCE, setAside, startSandboxProcess } from './lib.ts'
import { progress, type StepContext, type StepResult, seconds, thousands } from './step.ts'

const CHILD = fileURLToPath(new URL('./sync-child.ts', import.meta.url))
const MEMORY_STORE_MAX = 100_000
/** The fewest list calls that can return this many reviews: 200 (the API's largest page) a call. */
const lowerBound = (reviews: number) => Math.max(1, Math.ceil(reviews / 200))

export async function runSyncStep(context: StepContext): Promise<StepResult> {
  const { products, reviews } = context
  progress(`sync: generating the sandbox (${thousands(products)} products, ${thousands(reviews)} reviews)`)
  const sandbox = await startSandboxProcess({ products, reviews, rateLimit: 0 })
  const dir = await mkdtemp(join(tmpdir(), 'vr-bench-sync-'))
  const runs: {
    reviews: number
    calls: number
    store: string
    run: Measured
    retained: number
    fileBytes?: number
  }[] = []
  const sizes = [Math.round(reviews / 4), Math.round(reviews / 2), reviews]
  try {
    // A memory store holds each review's JSON (some 3.7 KB): past 100,000 reviews it is no store to measure.
    for (const count of sizes.filter((size) => size <= MEMORY_STORE_MAX)) {
      progress(`sync: ${thousands(count)} reviews into a memory store`)
      runs.push({ store: 'memory', ...(await sync(sandbox.env, count, undefined, context.echo)) })
    }
    for (const count of sizes) {
      const file = join(dir, `reviews-${count}.sqlite`)
      progress(`sync: ${thousands(count)} reviews into an SQLite store`)
      const synced = await sync(sandbox.env, count, file, context.echo)
      runs.push({ store: 'SQLite', ...synced, fileBytes: (await stat(file)).size })
    }
  } finally {
    await sandbox.close()
    await setAside(dir)
  }
  /** The memory kept at R/4 and at R: bytes a review between them, and the extrapolation to 1,000,000. */
  const growth = (store: string, holds: string) => {
    const of = runs.filter((entry) => entry.store === store)
    if (of.length < 2) return undefined
    const low = of[0] as (typeof of)[number]
    const high = of[of.length - 1] as (typeof of)[number]
    const perReview = (high.retained - low.retained) / (high.reviews - low.reviews)
    const base = (high.retained - perReview * high.reviews) / 2 ** 20
    const peakBase = high.run.peakProcessMiB - (high.retained / 2 ** 20 - base)
    return (
      `${store} store, ${thousands(Math.round(perReview))} bytes a review kept over a base of ${Math.round(base)} MiB ` +
      `(${Math.round((perReview * 100_000) / 2 ** 20)} MiB per 100,000 reviews): some ` +
      `${thousands(Math.round(base + (perReview * 1_000_000) / 2 ** 20))} MiB kept for 1,000,000 reviews, a peak RSS near ` +
      `${thousands(Math.round(peakBase + (perReview * 1_000_000) / 2 ** 20))} MiB (${holds})`
    )
  }
  return {
    rows: [],
    notes: [
      '',
      '| full sync | reviews | list calls (× LB) | peak RSS | kept after the sync (heap and buffers) | wall time |',
      '|---|---|---|---|---|---|',
      ...runs.map(
        (entry) =>
          `| ${entry.store} store | ${thousands(entry.reviews)} | ${thousands(entry.calls)} ` +
          `(${(entry.calls / lowerBound(entry.reviews)).toFixed(3)} × LB ${thousands(lowerBound(entry.reviews))}) | ` +
          `${entry.run.peakProcessMiB} MiB | ` +
          `${Math.round(entry.retained / 2 ** 20)} MiB | ${seconds(entry.run.seconds)}` +
          `${entry.fileBytes === undefined ? '' : ` (file ${Math.round(entry.fileBytes / 2 ** 20)} MiB)`} |`,
      ),
      '',
      `Growth of a full sync, from ${thousands(runs[0]?.reviews ?? 0)} to ${thousands(runs.at(-1)?.reviews ?? 0)} reviews ` +
        '(the peak RSS near 1,000,000 reviews is the last peak less what that sync kept, plus what 1,000,000 would keep): ' +
        [
          growth('memory', "it holds each review's JSON"),
          growth('SQLite', 'it holds none: they are rows of its file'),
        ]
          .filter((line) => line !== undefined)
          .join('; ') +
        '.',
    ],
  }
}

async function sync(
  env: Record<string, string>,
  reviews: number,
  store: string | undefined,
  echo: boolean,
): Promise<{ reviews: number; calls: number; run: Measured; retained: number }> {
  const run = await measure(
    process.execPath,
    [
      SOURCE,
      '--expose-gc',
      CHILD,
      '--reviews',
      String(reviews),
      ...(store === undefined ? [] : ['--store', store]),
    ],
    { env, echo },
  )
  if (run.code !== 0) throw new Error(`the sync child exited with ${run.code}: ${run.stderr}`)
  // The sync stops after the page that reaches `reviews`: it holds that page's reviews too.
  const { calls, held, retained } = JSON.parse(run.stdout) as {
    calls: number
    held: number
    retained: number
  }
  return { reviews: held, calls, run, retained }
}
