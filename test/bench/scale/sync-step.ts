/**
 * The `sync` step: the peak RSS of a full sync of R/4, R/2 and R reviews into a memory store, and of R
 * into a JSON file store, each in a process of its own; the slope between them is the cost of one more
 * review, from which the sync of 1,000,000 reviews is extrapolated.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Measured, measure, SOURCE, startSandboxProcess } from './lib.ts'
import { progress, type StepContext, type StepResult, seconds, thousands } from './step.ts'

const CHILD = fileURLToPath(new URL('./sync-child.ts', import.meta.url))

export async function runSyncStep(context: StepContext): Promise<StepResult> {
  const { products, reviews } = context
  progress(`sync: generating the sandbox (${thousands(products)} products, ${thousands(reviews)} reviews)`)
  const sandbox = await startSandboxProcess({ products, reviews, rateLimit: 0 })
  const dir = await mkdtemp(join(tmpdir(), 'vr-bench-sync-'))
  const runs: { reviews: number; store: string; run: Measured; fileBytes?: number }[] = []
  try {
    for (const count of [Math.round(reviews / 4), Math.round(reviews / 2), reviews]) {
      progress(`sync: ${thousands(count)} reviews into a memory store`)
      runs.push({
        reviews: count,
        store: 'memory',
        run: await sync(sandbox.env, count, undefined, context.echo),
      })
    }
    const file = join(dir, 'reviews.json')
    progress(`sync: ${thousands(reviews)} reviews into a JSON file store`)
    const run = await sync(sandbox.env, reviews, file, context.echo)
    runs.push({ reviews, store: 'JSON file', run, fileBytes: (await stat(file)).size })
  } finally {
    await sandbox.close()
    await rm(dir, { recursive: true, force: true })
  }
  const memory = runs.filter((entry) => entry.store === 'memory')
  const low = memory[0] as (typeof memory)[number]
  const high = memory[memory.length - 1] as (typeof memory)[number]
  const perReview =
    ((high.run.peakProcessMiB - low.run.peakProcessMiB) * 2 ** 20) / (high.reviews - low.reviews)
  const base = high.run.peakProcessMiB - (perReview * high.reviews) / 2 ** 20
  const million = base + (perReview * 1_000_000) / 2 ** 20
  return {
    rows: [],
    notes: [
      '',
      '| full sync | reviews | peak RSS | wall time |',
      '|---|---|---|---|',
      ...runs.map(
        (entry) =>
          `| ${entry.store} store | ${thousands(entry.reviews)} | ${entry.run.peakProcessMiB} MiB | ${seconds(entry.run.seconds)}` +
          `${entry.fileBytes === undefined ? '' : ` (file ${Math.round(entry.fileBytes / 2 ** 20)} MiB)`} |`,
      ),
      '',
      `Memory of a sync grows by ${Math.round(perReview)} bytes a review (the review's JSON is held as UTF-8): ` +
        `about ${Math.round(base)} MiB + ${Math.round((perReview * 100_000) / 2 ** 20)} MiB per 100,000 reviews, ` +
        `so some ${thousands(Math.round(million))} MiB for 1,000,000 reviews.`,
    ],
  }
}

async function sync(
  env: Record<string, string>,
  reviews: number,
  store: string | undefined,
  echo: boolean,
): Promise<Measured> {
  const run = await measure(
    process.execPath,
    [SOURCE, CHILD, '--reviews', String(reviews), ...(store === undefined ? [] : ['--store', store])],
    { env, echo },
  )
  if (run.code !== 0) throw new Error(`the sync child exited with ${run.code}: ${run.stderr}`)
  return run
}
