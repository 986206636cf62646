/**
 * The `astro` step: `astro build` of N product pages with `<ProductReviews>` and the integration (its
 * injection and its incremental store in `cacheDir`), each followed by a rebuild over its store with nothing
 * new (what each deploy after the first costs), then a second build after 300 new reviews; and the
 * same N pages without reviews (astro-scale-plain: the component and the integration removed), whose
 * build time is the baseline of the library's share; and the same N pages written by hand (astro-scale-hand:
 * the markup and JSON-LD of `<ProductReviews>` from local JSON files of the same reviews, no package of ours),
 * the limit the library's build is measured against. The library's build installs the packages as a shop's
 * site does: a folder each in its node_modules with what their tarball holds (`files`: the dist, built
 * first when older than its src), not links to the workspace's sources.
 */
import { createHash } from 'node:crypto'
import { copyFile, cp, mkdir, mkdtemp, readdir, readFile, realpath, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
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
import { buildPackages } from './next-step.ts'
import {
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

const CHILD = fileURLToPath(new URL('./astro-child.ts', import.meta.url))
const FIXTURE = fileURLToPath(new URL('../fixtures/astro-scale/', import.meta.url))
const PLAIN = fileURLToPath(new URL('../fixtures/astro-scale-plain/', import.meta.url))
const HAND = fileURLToPath(new URL('../fixtures/astro-scale-hand/', import.meta.url))
/** What the hand-written baselines compute, kept once in the Next.js one. */
const HAND_FORMAT = fileURLToPath(new URL('../fixtures/next-scale-hand/app/format.ts', import.meta.url))

/** The packages of ours the Astro site installs: the integration and what it depends on, in build order. */
const INSTALLED = ['core', 'inject', 'astro']

/** A path that the `files` of a package.json leave out of its tarball (tests, type tests, test helpers). */
function leftOut(path: string): boolean {
  return /\.test(-d)?\.|[\\/]testing([\\/]|$)/.test(path)
}

/**
 * Installs `name` in `root` as a shop's site gets it from the registry: a folder in node_modules holding
 * its package.json and the folders its `files` name, tests left out (what `pnpm pack` puts in the
 * tarball), so that Vite takes it as a dependency (its dist), not as the workspace's sources. Its other
 * dependencies are linked from the workspace's.
 */
async function install(root: string, name: string): Promise<void> {
  const from = join(ROOT, 'packages', name)
  const to = join(root, 'node_modules/@verified-reviews', name)
  const manifest = JSON.parse(await readFile(join(from, 'package.json'), 'utf8')) as {
    files: string[]
    dependencies?: Record<string, string>
    peerDependencies?: Record<string, string>
  }
  await mkdir(to, { recursive: true })
  await copyFile(join(from, 'package.json'), join(to, 'package.json'))
  for (const folder of manifest.files.filter((entry) => !entry.startsWith('!'))) {
    await cp(join(from, folder), join(to, folder), {
      recursive: true,
      filter: (path) => !leftOut(relative(from, path)),
    })
  }
  const dependencies = [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]
  for (const dependency of dependencies.filter(
    (dependency) => !dependency.startsWith('@verified-reviews/'),
  )) {
    const link = join(root, 'node_modules', dependency)
    if (
      await realpath(link).then(
        () => true,
        () => false,
      )
    )
      continue
    await mkdir(dirname(link), { recursive: true })
    await symlink(await realpath(join(from, 'node_modules', dependency)), link)
  }
}

/**
 * A copy of the fixture with a node_modules link to Astro and, unless `packages` is false, the packages
 * of ours installed (see {@link install}).
 */
async function prepare(dir: string, fixture = FIXTURE, name = 'site', packages = true): Promise<string> {
  const root = join(dir, name)
  await cp(fixture, root, { recursive: true })
  await mkdir(join(root, 'node_modules'), { recursive: true })
  await symlink(
    await realpath(join(ROOT, 'packages/astro/node_modules/astro')),
    join(root, 'node_modules/astro'),
  )
  if (!packages) return root
  for (const name of INSTALLED) await install(root, name)
  return root
}

/** A digest of every HTML page of a build, by path. */
async function pages(outDir: string): Promise<Map<string, string>> {
  const found = new Map<string, string>()
  for (const entry of await readdir(outDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue
    const path = join(entry.parentPath, entry.name)
    found.set(
      path,
      createHash('sha256')
        .update(await readFile(path))
        .digest('hex'),
    )
  }
  return found
}

interface Build extends Measured {
  operations: Record<string, number>
}

async function build(
  sandbox: SandboxProcess,
  root: string,
  outDir: string,
  cacheDir: string,
  context: StepContext,
  plain = false,
  env: Record<string, string> = {},
): Promise<Build> {
  await sandbox.takeStats()
  const run = await measure(
    process.execPath,
    [CHILD, '--root', root, '--out-dir', outDir, '--cache-dir', cacheDir, ...(plain ? ['--plain'] : [])],
    // In the site's folder, as a shop builds it: Astro's prerender bundle (under the working folder's
    // `.astro/`) imports the packages it leaves external from there.
    {
      cwd: root,
      env: { ...sandbox.env, ...env, VR_BENCH_PRODUCTS: String(context.products) },
      echo: context.echo,
    },
  )
  if (run.code !== 0) throw new Error(`astro build exited with ${run.code}: ${run.stderr.slice(-4000)}`)
  // The API time is the sandbox's (see takeUsage), not the build's clock.
  return { ...run, ...(await sandbox.takeUsage()) }
}

export async function runAstroStep(context: StepContext): Promise<StepResult> {
  const { products, reviews } = context
  const dir = await mkdtemp(join(tmpdir(), 'vr-bench-astro-'))
  const outDir = join(dir, 'dist')
  const cacheDir = join(dir, 'cache')
  // Each build's runs, in the order they ran (`--repeat`): the tables show each one's median.
  const runs: { ours: Build[]; rebuild: Build[]; hand: Build[]; plain: Build[] } = {
    ours: [],
    rebuild: [],
    hand: [],
    plain: [],
  }
  let first: Build
  let second: Build
  let limited: Build | undefined
  let plain: Build
  let hand: Build
  let markup: Awaited<ReturnType<typeof compareMarkup>> | undefined
  const pageBytes = { ours: 0, hand: 0, plain: 0 }
  let changed = 0
  let built = 0
  let added: Set<string>
  try {
    await buildPackages(context.echo, INSTALLED)
    const root = await prepare(dir)
    const plainRoot = await prepare(dir, PLAIN, 'plain')
    const handRoot = await prepare(dir, HAND, 'hand', false)
    await copyFile(HAND_FORMAT, join(handRoot, 'src/format.ts'))
    const handData = join(dir, 'hand-data')
    progress(`astro: generating the sandbox (${thousands(products)} products, ${thousands(reviews)} reviews)`)
    const sandbox = await startSandboxProcess({ products, reviews, rateLimit: 0 })
    try {
      let before = new Map<string, string>()
      let oursMarkup = new Map<string, string | undefined>()
      for (let round = 1; round <= context.repeat; round++) {
        const of = context.repeat === 1 ? '' : ` (${round} of ${context.repeat})`
        progress(`astro: first build of ${thousands(products)} product pages${of}`)
        // Each run from an empty store and output, as the first build of a site.
        await setAside(outDir)
        await setAside(cacheDir)
        runs.ours.push(await build(sandbox, root, outDir, cacheDir, context))
        if (round === 1) {
          before = await pages(outDir)
          built = before.size
          pageBytes.ours = await averageBytes([...before.keys()])
          // Sampled now: the second build changes the pages of the products that get new reviews.
          oursMarkup = await sampleMarkup(
            productIds(products).map((id) => join('products', id.toLowerCase(), 'index.html')),
            (name) => readFile(join(outDir, name), 'utf8'),
          )
          progress('astro: the reviews of the pages, to local JSON files for the hand-written baseline')
          await writeHandWrittenData(sandbox.env, handData, productIds(products))
        }
        progress(`astro: rebuild over the first build's store, no new review${of}`)
        // From an empty output too, as every other build here: Astro's emptying of the last build's pages
        // (some 5 s at 10,000 pages) is not the library's.
        await setAside(outDir)
        runs.rebuild.push(await build(sandbox, root, outDir, cacheDir, context))
        progress(`astro: the same ${thousands(products)} pages without reviews (the baseline)${of}`)
        const plainOut = join(dir, 'dist-plain')
        await setAside(plainOut)
        runs.plain.push(await build(sandbox, plainRoot, plainOut, join(dir, 'cache-plain'), context, true))
        const plainPages = await pages(plainOut)
        if (plainPages.size !== built)
          throw new Error(`the baseline built ${plainPages.size} pages, not ${built}`)
        if (round === 1) pageBytes.plain = await averageBytes([...plainPages.keys()])
        progress(
          `astro: the same ${thousands(products)} pages written by hand (the hand-written baseline)${of}`,
        )
        const handOut = join(dir, 'dist-hand')
        await setAside(handOut)
        runs.hand.push(
          await build(sandbox, handRoot, handOut, join(dir, 'cache-hand'), context, true, {
            VR_BENCH_HAND_DATA: handData,
          }),
        )
        const handPages = await pages(handOut)
        if (handPages.size !== built)
          throw new Error(`the hand-written baseline built ${handPages.size} pages, not ${built}`)
        if (round === 1) {
          pageBytes.hand = await averageBytes([...handPages.keys()])
          markup = await compareMarkup(oursMarkup, (name) => readFile(join(handOut, name), 'utf8'))
        }
      }
      // The second build goes on from the last first build's store and pages.
      if (context.repeat > 1) before = await pages(outDir)
      await sandbox.takeStats()
      const fresh = newReviews(productIds(products), 300)
      added = new Set(fresh.map((review) => review.product_variation_id))
      await sandbox.addReviews(fresh)
      progress('astro: second build, after 300 new reviews')
      second = await build(sandbox, root, outDir, cacheDir, context)
      for (const [path, digest] of await pages(outDir)) if (before.get(path) !== digest) changed++
    } finally {
      await sandbox.close()
    }
    first = medianRun(runs.ours)
    plain = medianRun(runs.plain)
    hand = medianRun(runs.hand)
    if (context.rate > 0) {
      progress(`astro: the sandbox at ${context.rate} requests/s`)
      const slow = await startSandboxProcess({ products, reviews, rateLimit: context.rate })
      try {
        limited = await build(slow, root, join(dir, 'dist-limited'), join(dir, 'cache-limited'), context)
      } finally {
        await slow.close()
      }
    }
  } finally {
    await setAside(dir)
  }
  if (markup === undefined) throw new Error('astro: no markup compared')
  const { total, tokens } = callsOf(first.operations)
  const bound = lowerBound(reviews, products, tokens)
  const reviewCalls = second.operations['products.reviews.list'] ?? 0
  return {
    rows: [
      row([
        `Astro build of ${thousands(products)} product pages (\`<ProductReviews>\`, incremental store)`,
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
          `${thousands(callsOf(second.operations).total)} calls in all; ${thousands(changed)} of ${thousands(built)} pages ` +
          `changed for ${thousands(added.size)} products with new reviews; ${seconds(second.seconds)}, ${mib(second.peakProcessMiB)}`,
      ]),
    ],
    notes: [
      `astro, first build: calls by operation ${JSON.stringify(first.operations)}`,
      ratioNote('astro build', first, plain),
      `astro build, hand-written baseline: ${callsOf(hand.operations).total} API calls`,
      processesNote('astro build', { ours: first, 'hand-written': hand, 'without reviews': plain }),
      rebuildNote('astro build', medianRun(runs.rebuild), hand),
      ...repeatNote('astro build', {
        ours: runs.ours,
        'ours, rebuild': runs.rebuild,
        'hand-written': runs.hand,
        'without reviews': runs.plain,
      }),
    ],
    baselines: [
      baselineRow({
        name: `Astro build of ${thousands(built)} product pages`,
        ours: first,
        hand,
        plain,
        pageBytes,
        markup,
        limited: limited === undefined ? undefined : { run: limited, bound, rate: context.rate },
      }),
    ],
  }
}
