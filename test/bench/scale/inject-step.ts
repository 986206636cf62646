/** The `verified-reviews inject` step: N generated pages, a first run with `--store`, then 300 new reviews. */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  callsOf,
  type InjectRun,
  lowerBound,
  newReviews,
  productIds,
  runInject,
  setAside,
  startSandboxProcess,
  writeProductPages,
} from './lib.ts'
import {
  limitedCell,
  mib,
  progress,
  row,
  type StepContext,
  type StepResult,
  seconds,
  thousands,
  unlimitedCell,
  versus,
} from './step.ts'

export async function runInjectStep(context: StepContext): Promise<StepResult> {
  const { products, reviews } = context
  const dir = await mkdtemp(join(tmpdir(), 'vr-bench-inject-'))
  const site = join(dir, 'site')
  const ids = productIds(products)
  let first: InjectRun
  let second: InjectRun
  let limited: InjectRun | undefined
  let added: Set<string>
  try {
    progress(
      `inject: generating the sandbox (${thousands(products)} products, ${thousands(reviews)} reviews)`,
    )
    const sandbox = await startSandboxProcess({ products, reviews, rateLimit: 0 })
    try {
      progress(`inject: writing ${thousands(products)} pages`)
      await writeProductPages(site, ids)
      progress('inject: first run')
      first = await runInject(sandbox, site, join(dir, 'store.sqlite'), context.echo)
      const fresh = newReviews(ids, 300)
      added = new Set(fresh.map((review) => review.product_variation_id))
      await sandbox.addReviews(fresh)
      progress('inject: second run, after 300 new reviews')
      second = await runInject(sandbox, site, join(dir, 'store.sqlite'), context.echo)
    } finally {
      await sandbox.close()
    }
    if (context.rate > 0) {
      progress(`inject: the sandbox at ${context.rate} requests/s`)
      const slow = await startSandboxProcess({ products, reviews, rateLimit: context.rate })
      try {
        await writeProductPages(join(dir, 'site-limited'), ids)
        limited = await runInject(
          slow,
          join(dir, 'site-limited'),
          join(dir, 'store-limited.sqlite'),
          context.echo,
        )
      } finally {
        await slow.close()
      }
    }
  } finally {
    await setAside(dir)
  }
  const { total, tokens } = callsOf(first.operations)
  const bound = lowerBound(reviews, products, tokens)
  const reviewCalls = second.operations['products.reviews.list'] ?? 0
  return {
    rows: [
      row([
        `\`verified-reviews inject\` over ${thousands(products)} pages (\`--store\`)`,
        versus(total, bound),
        unlimitedCell(first),
        limitedCell(
          limited,
          first,
          limited === undefined ? 0 : callsOf(limited.operations).total,
          bound,
          context.rate,
        ),
        `${mib(first.peakProcessMiB)} / ${mib(first.peakTreeMiB)}`,
        `${reviewCalls} review call${reviewCalls === 1 ? '' : 's'} (bound ${Math.ceil(300 / 200) + 1}), ` +
          `${thousands(callsOf(second.operations).total)} calls in all; ${thousands(second.report.changedPages)} pages changed ` +
          `for ${thousands(added.size)} products with new reviews; ${seconds(second.seconds)}, ${mib(second.peakProcessMiB)}`,
      ]),
    ],
    notes: [
      `inject, first run: ${thousands(first.report.changedPages)} of ${thousands(first.report.pages)} pages changed, ` +
        `${thousands(first.report.pagesWithoutReviews)} without reviews; calls by operation ${JSON.stringify(first.operations)}`,
    ],
  }
}
