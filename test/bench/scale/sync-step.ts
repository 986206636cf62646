/**
 * The `sync` step: the peak RSS of a full sync of R/4, R/2 and R reviews into a memory store and into a
 * JSON file store, each in a process of its own; the slope between them is the cost of one more review,
 * from which the sync of 1,000,000 reviews is extrapolated.
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
  const sizes = [Math.round(reviews / 4), Math.round(reviews / 2), reviews]
  try {
    for (const count of sizes) {
      progress(`sync: ${thousands(count)} reviews into a memory store`)
      runs.push({
        reviews: count,
        store: 'memory',
        run: await sync(sandbox.env, count, undefined, context.echo),
      })
    }
    for (const count of sizes) {
      const file = join(dir, `reviews-${count}.json`)
      progress(`sync: ${thousands(count)} reviews into a JSON file store`)
      const run = await sync(sandbox.env, count, file, context.echo)
      runs.push({ reviews: count, store: 'JSON file', run, fileBytes: (await stat(file)).size })
    }
  } finally {
    await sandbox.close()
    await rm(dir, { recursive: true, force: true })
  }
  /** The peak at R/4 and at R: bytes a review between them, and the extrapolation to 1,000,000. */
  const growth = (store: string) => {
    const of = runs.filter((entry) => entry.store === store)
    const low = of[0] as (typeof of)[number]
    const high = of[of.length - 1] as (typeof of)[number]
    const perReview =
      ((high.run.peakProcessMiB - low.run.peakProcessMiB) * 2 ** 20) / (high.reviews - low.reviews)
    const base = high.run.peakProcessMiB - (perReview * high.reviews) / 2 ** 20
    return (
      `${store} store: ${thousands(Math.round(perReview))} bytes a review, about ${Math.round(base)} MiB + ` +
      `${Math.round((perReview * 100_000) / 2 ** 20)} MiB per 100,000 reviews, so some ` +
      `${thousands(Math.round(base + (perReview * 1_000_000) / 2 ** 20))} MiB for 1,000,000 reviews`
    )
  }
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
      `Growth of the peak RSS of a full sync, from ${thousands(sizes[0] as number)} to ${thousands(reviews)} reviews: ` +
        `${growth('memory')} (it holds each review's JSON); ${growth('JSON file')} (it holds where each review is).`,
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
