/**
 * The `next` step: `next build` of N product pages (test/bench/fixtures/next-scale: `<ProductReviews>`
 * from the build prefetch) against a sandbox of N products and R reviews, then a rebuild over the build
 * data it kept in `.next-bench/cache` (nothing new: what each deploy after the first costs); then `next start`, 300 new
 * reviews and one call of the revalidate route, which syncs incrementally and revalidates only the
 * products that got reviews. Next.js consumes the packages' dist, built first when older than their src.
 * The same pages without reviews (test/bench/fixtures/next-scale-plain: the component and the config
 * wrapper removed) are built too: the baseline of the library's share of the build. So are the same pages
 * written by hand (next-scale-hand: the same markup, JSON-LD and island props from local JSON files of
 * the same reviews, no package of ours): the limit the library's build is measured against.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeHandWrittenData } from './hand-written-data.ts'
import {
  averageBytes,
  callsOf,
  lowerBound,
  type Measured,
  measure,
  newReviews,
  productIds,
  ROOT,
  type SandboxProcess,
  setAside,
  startSandboxProcess,
} from './lib.ts'
import { nextPhasesNote } from './next-phases.ts'
import {
  type BaselineComparison,
  baselineRow,
  compareMarkup,
  limitedCell,
  medianRun,
  mib,
  processesNote,
  progress,
  ratioNote,
  rebuildNote,
  repeatNote,
  row,
  type StepContext,
  type StepResult,
  sampleMarkup,
  seconds,
  thousands,
  unlimitedCell,
  versus,
} from './step.ts'

const APP = fileURLToPath(new URL('../fixtures/next-scale/', import.meta.url))
const PLAIN = fileURLToPath(new URL('../fixtures/next-scale-plain/', import.meta.url))
const HAND = fileURLToPath(new URL('../fixtures/next-scale-hand/', import.meta.url))
const NEXT = join(ROOT, 'test/node_modules/next/dist/bin/next')

async function newestMtime(dir: string): Promise<number> {
  let newest = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !entry.name.includes('.test.')) {
      newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs)
    }
  }
  return newest
}

/** Builds the dist of `names` (core, react and next by default), in that order, each when older than its src. */
export async function buildPackages(
  echo: boolean,
  names: readonly string[] = ['core', 'react', 'next'],
): Promise<void> {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
  for (const name of names) {
    const dir = join(ROOT, 'packages', name)
    const built = await stat(join(dir, 'dist/index.js')).then(
      (file) => file.mtimeMs,
      () => 0,
    )
    if (built < (await newestMtime(join(dir, 'src')))) {
      progress(`building packages/${name}/dist`)
      const run = await measure(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: dir, echo })
      if (run.code !== 0) throw new Error(`tsc of packages/${name} failed: ${run.stdout}${run.stderr}`)
    }
  }
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const address = server.address()
  server.close()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

function environment(
  sandbox: SandboxProcess,
  distDir: string,
  pages: number,
  secret: string,
  handData?: string,
) {
  return {
    ...sandbox.env,
    ...(handData === undefined ? {} : { VR_BENCH_HAND_DATA: handData }),
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    NEXT_DEMO_DIST_DIR: distDir,
    VERIFIED_REVIEWS_DIST_DIR: distDir,
    VERIFIED_REVIEWS_REVALIDATE_SECRET: secret,
    VR_BENCH_PRODUCTS: String(pages),
  }
}

interface Build extends Measured {
  operations: Record<string, number>
  pages: number
}

async function build(
  sandbox: SandboxProcess,
  distDir: string,
  pages: number,
  secret: string,
  echo: boolean,
  app = APP,
  handData?: string,
  kept = false,
): Promise<Build> {
  // A rebuild (`kept`) starts, as a deploy from a fresh checkout with its build cache restored does, from
  // a folder holding the last build's `<distDir>/cache` alone: the rest is set aside here rather than
  // deleted by `next build`, whose deletion of 10,000 pages this disk would charge to the build (the
  // same reason every build starts from a folder set aside). Turbopack's own cache there
  // (`cache/turbopack`) is removed: the hand-written build the rebuild is measured against compiles
  // without one, so the rebuild does too, and what it saves is the library's alone (the build data it
  // kept), not a warm compilation that a hand-written site's deploy would get as well.
  const dist = join(app, distDir)
  if (kept) {
    const cache = `${dist}-cache-${process.pid}`
    await rename(join(dist, 'cache'), cache)
    await rm(join(cache, 'turbopack'), { recursive: true, force: true })
    await setAside(dist)
    await mkdir(dist)
    await rename(cache, join(dist, 'cache'))
  } else {
    await setAside(dist)
  }
  await sandbox.takeStats()
  const run = await measure(process.execPath, [NEXT, 'build'], {
    cwd: app,
    env: environment(sandbox, distDir, pages, secret, handData),
    echo,
  })
  if (run.code !== 0)
    throw new Error(`next build exited with ${run.code}: ${(run.stdout + run.stderr).slice(-4000)}`)
  const built = (await readdir(join(app, distDir, 'server/app/products'))).filter((name) =>
    name.endsWith('.html'),
  )
  // The API time is the sandbox's (see takeUsage), not the build's clock.
  return { ...run, ...(await sandbox.takeUsage()), pages: built.length }
}

/** The product pages (`<id>.html`) a build wrote. */
async function builtPages(app: string, distDir: string): Promise<string[]> {
  const dir = join(app, distDir, 'server/app/products')
  return (await readdir(dir)).filter((name) => name.endsWith('.html')).map((name) => join(dir, name))
}

/**
 * The hand-written baseline: the reviews of the pages written to JSON files (before any new review, so
 * that they are those of our first build), the components' stylesheet copied beside the app, then
 * `next build`; its markup compared with our first build's, sampled before any revalidation.
 */
async function handWritten(
  sandbox: SandboxProcess,
  pages: number,
  secret: string,
  data: string,
  ours: ReadonlyMap<string, string | undefined>,
  echo: boolean,
  of = '',
): Promise<{ build: Build; markup: BaselineComparison['markup']; pageBytes: number }> {
  for (const file of ['styles.css', 'star.svg']) {
    const target = file === 'styles.css' ? 'reviews.css' : file
    await copyFile(join(ROOT, 'packages/core/src', file), join(HAND, 'app', target))
  }
  progress(`next: the same ${thousands(pages)} pages written by hand (the hand-written baseline)${of}`)
  const hand = await build(sandbox, '.next-bench-hand', pages, secret, echo, HAND, data)
  const files = await builtPages(HAND, '.next-bench-hand')
  const markup = await compareMarkup(ours, (name) =>
    readFile(join(HAND, '.next-bench-hand/server/app/products', name), 'utf8'),
  )
  const pageBytes = await averageBytes(files)
  await setAside(join(HAND, '.next-bench-hand'))
  return { build: hand, markup, pageBytes }
}

/** `next start` on a free port; resolves once it answers. */
async function start(env: Record<string, string>): Promise<{ origin: string; child: ChildProcess }> {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, [NEXT, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: APP,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}`)
    const answered = await fetch(`${origin}/products/none`).then(
      () => true,
      () => false,
    )
    if (answered) return { origin, child }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('next start did not answer')
}

async function rssOf(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0
  const { readFile } = await import('node:fs/promises')
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024)
}

export async function runNextStep(context: StepContext): Promise<StepResult> {
  const { reviews } = context
  const pages = context.nextProducts
  const secret = `bench-${randomUUID()}`
  await buildPackages(context.echo)
  progress(`next: generating the sandbox (${thousands(pages)} products, ${thousands(reviews)} reviews)`)
  const sandbox = await startSandboxProcess({ products: pages, reviews, rateLimit: 0 })
  let first: Build
  let limited: Build | undefined
  let plain: Build
  let hand: Awaited<ReturnType<typeof handWritten>>
  let handFirst: Awaited<ReturnType<typeof handWritten>> | undefined
  let oursPageBytes = 0
  let plainPageBytes = 0
  let added: Set<string>
  const handData = await mkdtemp(join(tmpdir(), 'vr-bench-next-hand-'))
  let revalidation: {
    seconds: number
    reviewCalls: number
    calls: number
    revalidated: number
    products: number
    serverPeakMiB: number
    serverBeforeMiB: number
    /** API calls of re-rendering the revalidated pages, and their time. */
    rerenderCalls: number
    rerenderSeconds: number
  }
  // Each build's runs, in the order they ran (`--repeat`): the tables show each one's median.
  const runs: { ours: Build[]; rebuild: Build[]; hand: Build[]; plain: Build[] } = {
    ours: [],
    rebuild: [],
    hand: [],
    plain: [],
  }
  try {
    let oursMarkup = new Map<string, string | undefined>()
    for (let round = 1; round <= context.repeat; round++) {
      const of = context.repeat === 1 ? '' : ` (${round} of ${context.repeat})`
      progress(`next: next build of ${thousands(pages)} product pages${of}`)
      // Each run into an emptied folder; the last one's is the one `next start` serves below.
      runs.ours.push(await build(sandbox, '.next-bench', pages, secret, context.echo))
      if (round === 1) {
        const oursFiles = await builtPages(APP, '.next-bench')
        oursPageBytes = await averageBytes(oursFiles)
        oursMarkup = await sampleMarkup(
          oursFiles.map((file) => file.slice(file.lastIndexOf('/') + 1)),
          (name) => readFile(join(APP, '.next-bench/server/app/products', name), 'utf8'),
        )
        progress('next: the reviews of the pages, to local JSON files for the hand-written baseline')
        await writeHandWrittenData(sandbox.env, handData, productIds(pages))
      }
      // What each deploy after a site's first costs: a build that starts from the build data the last
      // one kept in `.next-bench/cache`, nothing new in the account.
      progress(`next: rebuild over the build data the first build kept, no new review${of}`)
      const rebuild = await build(sandbox, '.next-bench', pages, secret, context.echo, APP, undefined, true)
      runs.rebuild.push(rebuild)
      if (rebuild.pages !== runs.ours[0]?.pages)
        throw new Error(`the rebuild built ${rebuild.pages} pages, not ${runs.ours[0]?.pages}`)
      progress(`next: the same ${thousands(pages)} pages without reviews (the baseline)${of}`)
      const plainRun = await build(sandbox, '.next-bench-plain', pages, secret, context.echo, PLAIN)
      runs.plain.push(plainRun)
      if (round === 1) plainPageBytes = await averageBytes(await builtPages(PLAIN, '.next-bench-plain'))
      await setAside(join(PLAIN, '.next-bench-plain'))
      if (plainRun.pages !== runs.ours[0]?.pages)
        throw new Error(`the baseline built ${plainRun.pages} pages, not ${runs.ours[0]?.pages}`)
      const handRun = await handWritten(sandbox, pages, secret, handData, oursMarkup, context.echo, of)
      runs.hand.push(handRun.build)
      if (handRun.build.pages !== runs.ours[0]?.pages)
        throw new Error(
          `the hand-written baseline built ${handRun.build.pages} pages, not ${runs.ours[0]?.pages}`,
        )
      if (round === 1) handFirst = handRun
    }
    if (handFirst === undefined) throw new Error('next: no hand-written build')
    first = medianRun(runs.ours)
    plain = medianRun(runs.plain)
    // The first run's markup and page sizes (every run builds the same pages), the median run's time.
    hand = { ...handFirst, build: medianRun(runs.hand) }
    await sandbox.takeStats()
    progress('next: next start, 300 new reviews, the revalidate route')
    const server = await start(environment(sandbox, '.next-bench', pages, secret))
    try {
      const fresh = newReviews(productIds(pages), 300)
      added = new Set(fresh.map((review) => review.product_variation_id))
      await sandbox.addReviews(fresh)
      await sandbox.takeStats()
      const serverBeforeMiB = await rssOf(server.child.pid)
      const started = performance.now()
      const response = await fetch(`${server.origin}/api/revalidate-reviews`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}` },
      })
      if (!response.ok)
        throw new Error(`the revalidate route answered ${response.status}: ${await response.text()}`)
      const answer = (await response.json()) as { products: string[]; revalidated: string[] }
      const elapsed = (performance.now() - started) / 1000
      const operations = await sandbox.takeStats()
      // The deploy's last part: every revalidated page requested (which regenerates it in the
      // background), then again once regenerated; the calls that costs (none where the replica serves).
      const rerenderStarted = performance.now()
      const changed = [...added]
      const visit = async () => {
        for (let id = changed.shift(); id !== undefined; id = changed.shift()) {
          await (await fetch(`${server.origin}/products/${id}`)).arrayBuffer()
        }
      }
      await Promise.all(Array.from({ length: 8 }, visit))
      await new Promise((resolve) => setTimeout(resolve, 3000))
      changed.push(...added)
      await Promise.all(Array.from({ length: 8 }, visit))
      const rerenderSeconds = (performance.now() - rerenderStarted) / 1000
      const rerender = await sandbox.takeStats()
      revalidation = {
        rerenderCalls: callsOf(rerender).total,
        rerenderSeconds,
        seconds: elapsed,
        reviewCalls: operations['products.reviews.list'] ?? 0,
        calls: callsOf(operations).total,
        revalidated: answer.revalidated.length,
        products: added.size,
        serverPeakMiB: await rssOf(server.child.pid),
        serverBeforeMiB,
      }
    } finally {
      server.child.kill('SIGTERM')
    }
  } finally {
    await sandbox.close()
    await setAside(handData)
  }
  if (context.rate > 0) {
    progress(`next: next build with the sandbox at ${context.rate} requests/s`)
    const slow = await startSandboxProcess({ products: pages, reviews, rateLimit: context.rate })
    try {
      limited = await build(slow, '.next-bench-limited', pages, secret, context.echo)
    } finally {
      await slow.close()
      await setAside(join(APP, '.next-bench-limited'))
    }
  }
  const { total, tokens } = callsOf(first.operations)
  const bound = lowerBound(reviews, pages, tokens)
  const medianRebuild = medianRun(runs.rebuild)
  return {
    rows: [
      row([
        `\`next build\` of ${thousands(first.pages)} product pages (build prefetch; ${((first.seconds / first.pages) * 1000).toFixed(0)} ms a page)`,
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
        `revalidate route after \`next start\`: ${revalidation.reviewCalls} review call${revalidation.reviewCalls === 1 ? '' : 's'} ` +
          `(bound ${Math.ceil(300 / 200) + 1}), ${revalidation.calls} calls in all; ${thousands(revalidation.revalidated)} pages ` +
          `revalidated for ${thousands(revalidation.products)} products with new reviews; ${seconds(revalidation.seconds)}; ` +
          `server peak ${mib(revalidation.serverPeakMiB)} (${mib(revalidation.serverBeforeMiB)} before the call); ` +
          `re-rendering the ${thousands(revalidation.products)} pages: ${revalidation.rerenderCalls} API calls, ${seconds(revalidation.rerenderSeconds)}`,
      ]),
    ],
    notes: [
      `next build: calls by operation ${JSON.stringify(first.operations)}`,
      // The first revalidate call's least: a token, the new reviews (200 a call), the summaries of the
      // products they changed (200 a call); LB + 3 is that for fewer than 200 new reviews on fewer than
      // 200 products.
      `deploy (build + start + first revalidate call after 300 new reviews + re-rendering the changed pages): ` +
        `${total + revalidation.calls + revalidation.rerenderCalls} calls against LB + 1 token + ⌈300/200⌉ reviews + ` +
        `⌈${revalidation.products}/200⌉ summaries = ${bound + 1 + Math.ceil(300 / 200) + Math.ceil(revalidation.products / 200)}`,
      ratioNote('next build', first, plain),
      `next build, hand-written baseline: ${callsOf(hand.build.operations).total} API calls`,
      processesNote('next build', { ours: first, 'hand-written': hand.build, 'without reviews': plain }),
      rebuildNote('next build', medianRebuild, hand.build),
      nextPhasesNote('next build', {
        ours: first,
        'ours, rebuild': medianRebuild,
        'hand-written': hand.build,
        'without reviews': plain,
      }),
      `next build, rebuild: calls by operation ${JSON.stringify(medianRebuild.operations)}`,
      ...repeatNote('next build', {
        ours: runs.ours,
        'ours, rebuild': runs.rebuild,
        'hand-written': runs.hand,
        'without reviews': runs.plain,
      }),
    ],
    baselines: [
      baselineRow({
        name: `\`next build\` of ${thousands(first.pages)} product pages`,
        ours: first,
        hand: hand.build,
        plain,
        pageBytes: { ours: oursPageBytes, hand: hand.pageBytes, plain: plainPageBytes },
        markup: hand.markup,
        limited: limited === undefined ? undefined : { run: limited, bound, rate: context.rate },
      }),
    ],
  }
}
