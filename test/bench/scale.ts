/**
 * `pnpm bench:scale`: the cost of a catalogue of N product pages and R reviews against the sandbox (a
 * benchmark, not a test: it measures and prints, it asserts nothing on time). For each step, the API
 * calls next to the lower bound LB = ceil(R/200) + ceil(N/200) + tokens, the wall time without a rate
 * limit and with the sandbox at `--rate` requests per second, the peak RSS (of the largest process and of
 * the process tree), and a second, incremental run after 300 new reviews.
 *
 *   pnpm bench:scale [--products 10000] [--reviews 100000] [--only inject,sync,astro,next,reads,render]
 *                    [--rate 20] [--no-rate] [--next-products N] [--repeat 1] [--echo]
 *
 * Steps: `inject` (the `verified-reviews inject` command over N generated pages, with `--store`),
 * `sync` (the memory of a full sync into a memory store at R/4, R/2 and R reviews: the cost per review),
 * `astro` (an Astro build of N product pages with `<ProductReviews>`), `next` (`next build` of N product
 * pages with the "more reviews" island, then the revalidate route after 300 new reviews), each beside the
 * same pages without reviews and the same pages written by hand from local JSON files of the same reviews
 * (a second table: time and peak memory against both baselines), `reads` (1,000 concurrent identical cold reads
 * in one process), `render` (see `pnpm bench:react`: a product page with 20 reviews and JSON-LD).
 * `--repeat K` builds each of the three (ours, hand-written, without reviews) K times in turn in the
 * `astro` and `next` steps, and shows each one's median run: a build's time on a shared machine varies
 * by a fifth or more from run to run.
 * Every step runs in child processes, so that each one's memory is its own.
 */
import { cpus, totalmem } from 'node:os'
import { parseArgs } from 'node:util'
import { runAstroStep } from './scale/astro-step.ts'
import { runInjectStep } from './scale/inject-step.ts'
import { commitMeasured, emptyTrash, loadAverage } from './scale/lib.ts'
import { runNextStep } from './scale/next-step.ts'
import { runReadsStep } from './scale/reads-step.ts'
import { runRenderStep } from './scale/render-step.ts'
import { BASELINE_HEADER, type StepContext, type StepResult, TABLE_HEADER } from './scale/step.ts'
import { runSyncStep } from './scale/sync-step.ts'

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '10000' },
    reviews: { type: 'string', default: '100000' },
    only: { type: 'string', default: 'inject,sync,astro,next,reads,render' },
    rate: { type: 'string', default: '20' },
    'no-rate': { type: 'boolean', default: false },
    'next-products': { type: 'string' },
    echo: { type: 'boolean', default: false },
    repeat: { type: 'string', default: '1' },
  },
})
const products = Number(values.products)
const reviews = Number(values.reviews)
const steps = new Set(values.only.split(',').map((step) => step.trim()))
const context: StepContext = {
  products,
  reviews,
  rate: values['no-rate'] ? 0 : Number(values.rate),
  nextProducts: values['next-products'] === undefined ? products : Number(values['next-products']),
  echo: values.echo,
  repeat: Number(values.repeat),
}
if (!Number.isInteger(context.repeat) || context.repeat < 1)
  throw new Error(`--repeat must be a whole number from 1, got ${values.repeat}`)
for (const [name, value] of Object.entries({ products, reviews, rate: context.rate })) {
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number, got ${value}`)
}

console.log(
  `# bench:scale: N = ${products.toLocaleString('en')} products, R = ${reviews.toLocaleString('en')} reviews ` +
    (context.nextProducts === products
      ? ''
      : `(next build: ${context.nextProducts.toLocaleString('en')} products) `) +
    `(${commitMeasured()}, node ${process.version}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, ` +
    `${new Date().toISOString().slice(0, 16)}Z, load average ${loadAverage()})`,
)
const results: StepResult[] = []
try {
  if (steps.has('inject')) results.push(await runInjectStep(context))
  if (steps.has('sync')) results.push(await runSyncStep(context))
  if (steps.has('astro')) results.push(await runAstroStep(context))
  if (steps.has('next')) results.push(await runNextStep(context))
  if (steps.has('reads')) results.push(await runReadsStep(context))
  if (steps.has('render')) results.push(await runRenderStep(context))
} finally {
  // The steps' folders, set aside as each step went (see setAside), deleted once nothing is measured.
  await emptyTrash()
}
console.log('')
const rows = results.flatMap((result) => result.rows)
if (rows.length > 0) {
  console.log(TABLE_HEADER.map((line) => line.replace('{rate}', String(context.rate))).join('\n'))
  console.log(rows.join('\n'))
  console.log('')
}
const baselines = results.flatMap((result) => result.baselines ?? [])
if (baselines.length > 0) {
  console.log(BASELINE_HEADER.join('\n'))
  console.log(baselines.join('\n'))
  console.log('')
}
for (const line of results.flatMap((result) => result.notes)) console.log(line)
console.log(
  `\nLoad average (1, 5, 15 min) at the end: ${loadAverage()}, ${new Date().toISOString().slice(0, 16)}Z.`,
)
