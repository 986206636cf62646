// `pnpm test:examples`: every app of examples/ installed as a shop's developer installs it, from the packed
// packages, and built against the sandbox. For each package of packages/, `pnpm pack` makes the tarball a
// registry would serve; each example is copied to a folder outside the workspace, its @verified-reviews/*
// dependencies pointed at those tarballs, installed with npm, built, and checked: stars and reviews in the
// HTML, one Product node per product page, the API calls of the build against what its pages need, the
// "more reviews" route under `next start`, no React in the Astro examples, and the form the build's store
// keeps where the test sets `VERIFIED_REVIEWS_LANGUAGES` in the example's `.env`. Before the build, as a
// developer starts, each example runs under its dev server (`next dev`, `astro dev`): its product pages
// requested once, then again after a page file is edited, with their reviews, the API calls counted, and
// no error line nor warning of ours in the server's output. An example that is a script a shop runs once
// (`SCRIPT_EXAMPLES`) is installed the same way, type-checked and run against the sandbox, and its output,
// the files it writes and its API calls checked. Needs built packages (`pnpm build`);
// `--only name,name` picks examples, `--keep` keeps the work folder.
import { spawn } from 'node:child_process'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { createSqliteReviewStore } from '@verified-reviews/core/sync'
import { createSandbox, type Sandbox } from '@verified-reviews/sandbox'
import { freePort } from '../fixtures/free-port.ts'
import { run } from '../fixtures/run-command.ts'
import { apiCalls, sandboxOperations } from '../fixtures/sandbox-stats.ts'
import {
  DEV_PAGES,
  type DevSpec,
  EXAMPLES,
  type ExampleSpec,
  SCRIPT_EXAMPLES,
  type ScriptExampleSpec,
} from './examples.ts'
import { type PageFacts, pageFacts } from './page-facts.ts'

const ROOT = join(import.meta.dirname, '../..')
const PNPM = ['-y', 'pnpm@10.34.9']

const { values } = parseArgs({
  options: { only: { type: 'string' }, keep: { type: 'boolean', default: false } },
})
const only = values.only?.split(',').map((name) => name.trim())
const chosen = EXAMPLES.filter((example) => only === undefined || only.includes(example.name))
const chosenScripts = SCRIPT_EXAMPLES.filter((example) => only === undefined || only.includes(example.name))
if (chosen.length + chosenScripts.length === 0) {
  const names = [...EXAMPLES, ...SCRIPT_EXAMPLES].map((e) => e.name)
  throw new Error(`--only ${values.only}: no such example (${names})`)
}

/** The environment of npm and the builds: Node 24 (this process's) first on the PATH, no pnpm leftovers. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    ASTRO_TELEMETRY_DISABLED: '1',
  }
  for (const key of Object.keys(env)) {
    const pnpmOwn = key.startsWith('npm_') || key.startsWith('PNPM_') || key.startsWith('VERIFIED_REVIEWS_')
    if (pnpmOwn || key === 'NODE_OPTIONS' || key === 'INIT_CWD' || key === 'NODE_PATH') delete env[key]
  }
  const path = (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node_modules'))
  env.PATH = [dirname(process.execPath), ...path].join(delimiter)
  return Object.assign(env, extra)
}

/** Packs every package of packages/ into `into` and gives the tarball of each package name. */
async function packAll(into: string): Promise<Map<string, string>> {
  const tarballs = new Map<string, string>()
  for (const folder of await readdir(join(ROOT, 'packages'))) {
    const dir = join(ROOT, 'packages', folder)
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      name: string
      version: string
    }
    try {
      await stat(join(dir, 'dist'))
    } catch {
      throw new Error(`${manifest.name} has no dist/: run \`pnpm build\` first`)
    }
    await run('npx', [...PNPM, 'pack', '--pack-destination', into], { cwd: dir, env: cleanEnv() })
    const file = `${manifest.name.replace('@', '').replace('/', '-')}-${manifest.version}.tgz`
    await stat(join(into, file))
    tarballs.set(manifest.name, join(into, file))
  }
  return tarballs
}

/** The languages the kept form of a build's review store names in its checkpoint (none: reviews whole). */
async function keptLanguages(file: string): Promise<readonly string[] | undefined> {
  const store = createSqliteReviewStore(file)
  try {
    return (await store.getCheckpoint())?.kept?.languages
  } finally {
    await store.close()
  }
}

/** Copies an example outside the workspace with its @verified-reviews/* dependencies on the tarballs. */
async function copyExample(
  spec: { name: string },
  work: string,
  tarballs: Map<string, string>,
): Promise<string> {
  const from = join(ROOT, 'examples', spec.name)
  const to = join(work, spec.name)
  const skipped = new Set([
    'node_modules',
    '.next',
    'dist',
    '_site',
    '.astro',
    'published',
    'package-lock.json',
  ])
  await cp(from, to, {
    recursive: true,
    filter: (source) => !skipped.has(relative(from, source).split('/')[0] ?? ''),
  })
  const manifestPath = join(to, 'package.json')
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as {
    dependencies?: Record<string, string>
    overrides?: Record<string, string>
  }
  const overrides: Record<string, string> = {}
  for (const [name, tarball] of tarballs) {
    if (name === '@verified-reviews/sandbox') continue
    const file = `file:${tarball}`
    if (manifest.dependencies?.[name] !== undefined) manifest.dependencies[name] = file
    overrides[name] = file
  }
  manifest.overrides = { ...manifest.overrides, ...overrides }
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
  return to
}

interface Started {
  origin: string
  stop(): Promise<void>
  output(): string
}

/** Starts a long-running command and waits until `origin` answers. */
async function startServer(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  origin: string,
): Promise<Started> {
  const child = spawn('npm', args, { cwd, env, detached: true })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return
    const closed = new Promise((resolve) => child.once('close', resolve))
    process.kill(-child.pid, 'SIGTERM')
    await closed
  }
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm ${args.join(' ')} ended:\n${output}`)
    try {
      await fetch(origin)
      return { origin, stop, output: () => output }
    } catch {
      if (Date.now() > deadline) {
        await stop()
        throw new Error(`npm ${args.join(' ')} did not answer on ${origin} within 120 s:\n${output}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
}

/** What an example did under its dev server. */
interface DevOutcome {
  server: DevSpec['server']
  /** Seconds from the start of the server to its first answer. */
  ready: number
  /** API calls from the server's start through the first request of each product page. */
  first: Record<string, number>
  /** API calls from the edit of the page file through the requests after it. */
  afterEdit: Record<string, number>
  /** The page file edited. */
  edited: string
  /** The product pages as served after the edit. */
  pages: PageFacts[]
  /** The framework's own warnings the output held (by their name in {@link FRAMEWORK_WARNINGS}). */
  allowed: string[]
}

interface Outcome {
  name: string
  install: number
  build: number
  calls: number
  bound: number
  byOperation: Record<string, number>
  pages: PageFacts[]
  notes: string[]
  dev: DevOutcome | { none: string }
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message)
}

/** What every product page shows, built or served by a dev server: `where` names it in the failure. */
function checkPage(spec: ExampleSpec, page: PageFacts, where: string): void {
  check(page.productNodes === 1, `${where} has ${page.productNodes} Product nodes, not 1`)
  if (spec.stars) check(page.stars, `${where} shows no stars ("out of 5")`)
  check(page.reviews >= spec.minReviews, `${where} shows ${page.reviews} reviews`)
  check(page.jsonLdReviews > 0, `${where} has no review in its JSON-LD`)
  // The product and its reviews in the HTML as it arrives, readable without JavaScript.
  check(page.streamedBoundaries === 0, `${where} streams ${page.streamedBoundaries} Suspense boundaries`)
}

async function runExample(
  spec: ExampleSpec,
  work: string,
  tarballs: Map<string, string>,
  sandbox: Sandbox,
): Promise<Outcome> {
  const dir = await copyExample(spec, work, tarballs)
  const notes: string[] = []
  // As a shop sets it: in the project's .env, which Astro gives to pages only (the integration reads it).
  if (spec.languages !== undefined)
    await writeFile(join(dir, '.env'), `VERIFIED_REVIEWS_LANGUAGES=${spec.languages.env}\n`)
  let started = performance.now()
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env: cleanEnv() })
  const install = (performance.now() - started) / 1000

  const env = cleanEnv({
    VERIFIED_REVIEWS_ORIGIN: sandbox.origin,
    VERIFIED_REVIEWS_CLIENT_ID: sandbox.clientId,
    VERIFIED_REVIEWS_CLIENT_SECRET: sandbox.clientSecret,
    VERIFIED_REVIEWS_WEBSITE_ID: sandbox.websiteId,
    VERIFIED_REVIEWS_CURSOR_SECRET: 'examples-cursor-secret-0123456789',
    VERIFIED_REVIEWS_REVALIDATE_SECRET: 'examples-revalidate-secret',
  })

  // First the dev server, on the fresh install, as a developer starts: no build has run, so there is no
  // build data nor replica, and the pages read the API.
  const dev = 'none' in spec.dev ? spec.dev : await runDev(spec, spec.dev, dir, env, sandbox)
  if (!('none' in dev)) {
    notes.push(
      `${dev.server}: ready in ${dev.ready.toFixed(1)} s, ${sum(dev.first)} API calls to the first request ` +
        `of ${dev.pages.length} product pages ${JSON.stringify(dev.first)}, ${sum(dev.afterEdit)} after ` +
        `editing ${dev.edited} ${JSON.stringify(dev.afterEdit)}` +
        (dev.allowed.length > 0 ? `; the framework's own warnings: ${dev.allowed.join(', ')}` : ''),
    )
    // What the dev server left (Next.js's `.next/dev`, Astro's cache folders and the integration's store in
    // them) goes, so that the build below starts as a first build does.
    for (const folder of ['.next', '.astro', 'node_modules/.astro', 'node_modules/.vite'])
      await rm(join(dir, folder), { recursive: true, force: true })
  } else notes.push(`no dev server of ours: ${dev.none}`)

  await fetch(`${sandbox.origin}/__sandbox/reset`, { method: 'POST' })
  const before = await sandboxOperations(sandbox.origin)
  started = performance.now()
  const output = await run('npm', ['run', 'build'], { cwd: dir, env })
  const build = (performance.now() - started) / 1000
  const after = await sandboxOperations(sandbox.origin)
  const byOperation = apiCalls(before, after)
  const calls = Object.values(byOperation).reduce((sum, count) => sum + count, 0)
  check(
    calls <= spec.bound,
    `${spec.name}: the build made ${calls} API calls (${JSON.stringify(byOperation)}), more than the ${spec.bound} its pages need`,
  )
  // Next.js's advice to keep `.next/cache` between CI builds (it prints it when CI is set) is its own, not
  // the example's: a fresh install has no cache to find.
  const warnings = output
    .split('\n')
    .filter((line) => /⚠|\bwarn(ing)?\b|\berror\b/i.test(line) && !line.includes('No build cache found'))
  check(warnings.length === 0, `${spec.name}: the build warned:\n${warnings.join('\n')}`)
  for (const line of output.split('\n'))
    if (/verified-reviews|API calls|pages changed/i.test(line)) notes.push(line.trim())
  if (spec.languages !== undefined) {
    const kept = await keptLanguages(join(dir, spec.languages.file))
    check(
      JSON.stringify(kept) === JSON.stringify(spec.languages.expected),
      `${spec.name}: with VERIFIED_REVIEWS_LANGUAGES=${spec.languages.env} in .env, the build's store keeps ${JSON.stringify(kept)}, not ${JSON.stringify(spec.languages.expected)}`,
    )
    notes.push(
      `VERIFIED_REVIEWS_LANGUAGES=${spec.languages.env} in .env: the build's store keeps ${kept?.join(', ')}`,
    )
  }

  const pages: PageFacts[] = []
  if (spec.kind === 'next') {
    const port = await freePort()
    const server = await startServer(
      ['run', 'start', '--', '-p', String(port)],
      dir,
      env,
      `http://127.0.0.1:${port}/`,
    )
    try {
      const serving = await sandboxOperations(sandbox.origin)
      for (const id of spec.products) {
        const response = await fetch(`${server.origin}/products/${id}`)
        check(response.status === 200, `${spec.name}: /products/${id} answered ${response.status}`)
        pages.push(pageFacts(`/products/${id}`, await response.text()))
      }
      const afterPages = apiCalls(serving, await sandboxOperations(sandbox.origin))
      notes.push(`serving ${spec.products.length} prerendered product pages: ${sum(afterPages)} API calls`)
      // The "more reviews" island's route: the first page, then the next by its signed cursor.
      const first = await fetch(
        `${server.origin}/api/reviews?product_variation_id=${spec.products[0]}&limit=5`,
      )
      const firstBody = (await first.json()) as { data: unknown[]; nextCursor: string | null }
      check(
        first.status === 200 && firstBody.data.length === 5,
        `${spec.name}: /api/reviews answered ${first.status}`,
      )
      check(typeof firstBody.nextCursor === 'string', `${spec.name}: /api/reviews gave no nextCursor`)
      const second = await fetch(
        `${server.origin}/api/reviews?product_variation_id=${spec.products[0]}&limit=5&cursor=${encodeURIComponent(firstBody.nextCursor ?? '')}`,
      )
      const secondBody = (await second.json()) as { data: unknown[] }
      check(
        second.status === 200 && secondBody.data.length > 0,
        `${spec.name}: the next page answered ${second.status}`,
      )
      notes.push(
        `reviews route under next start: ${firstBody.data.length} then ${secondBody.data.length} reviews`,
      )
      // The plain "more reviews" link (no JavaScript) of the first page goes to its dynamic twin.
      const link = pages[0]?.moreLink
      check(link !== undefined, `${spec.name}: no plain "more reviews" link on ${pages[0]?.path}`)
      const twin = await fetch(new URL(link ?? '', `${server.origin}/products/${spec.products[0]}`))
      const twinFacts = pageFacts(link ?? '', await twin.text())
      check(
        twin.status === 200 && twinFacts.reviews > 0,
        `${spec.name}: the link ${link} answered ${twin.status}`,
      )
      notes.push(`plain link ${link}: ${twin.status}, ${twinFacts.reviews} reviews`)
    } finally {
      await server.stop()
    }
  } else {
    // A second build: what a later build of the same pages costs (Astro keeps its collections and the
    // integration's store in its cache folder; `verified-reviews inject --store` keeps its file).
    const again = await sandboxOperations(sandbox.origin)
    await run('npm', ['run', 'build'], { cwd: dir, env })
    const second = apiCalls(again, await sandboxOperations(sandbox.origin))
    notes.push(`second build: ${sum(second)} API calls ${JSON.stringify(second)}`)
    for (const id of spec.products) {
      const file = join(dir, spec.output, 'products', id, 'index.html')
      pages.push(pageFacts(`/products/${id}/`, await readFile(file, 'utf8')))
    }
  }
  for (const page of pages) checkPage(spec, page, `${spec.name}: ${page.path}`)
  if (spec.noReact) {
    const react = await findReact(dir, spec.output)
    check(react.length === 0, `${spec.name}: React reached the site: ${react.join(', ')}`)
    notes.push('no React: node_modules has no react, the output no React code')
  }
  return { name: spec.name, install, build, calls, bound: spec.need, byOperation, pages, notes, dev }
}

/**
 * The framework's own warnings a dev server may print, allowed by name: any other warning line, any
 * error line, and any warning or error line naming a package of ours fail the run.
 */
const FRAMEWORK_WARNINGS: { name: string; line: RegExp }[] = []

/** A line that warns or tells an error, as the build's check reads them. */
const WARNING_OR_ERROR = /⚠|⨯|\bwarn(ing)?\b|\berror\b/i

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences of colored output
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g

/** Waits until the server has printed nothing for `quiet` ms (a dev server logs after it answers). */
async function settle(server: Started, quiet = 1500, most = 20_000): Promise<void> {
  const deadline = Date.now() + most
  let length = -1
  while (Date.now() < deadline && server.output().length !== length) {
    length = server.output().length
    await new Promise((resolve) => setTimeout(resolve, quiet))
  }
}

/**
 * Runs an example under its dev server: every product page (at most {@link DEV_PAGES}) requested once,
 * then its page file edited (an attribute added to its `<main>`) and every page requested again once the
 * server serves the edit. Each page must show its stars and reviews and one Product node; the output
 * must hold no error line and no warning but the framework's own of {@link FRAMEWORK_WARNINGS}.
 */
async function runDev(
  spec: ExampleSpec,
  dev: DevSpec,
  dir: string,
  env: NodeJS.ProcessEnv,
  sandbox: Sandbox,
): Promise<DevOutcome> {
  await fetch(`${sandbox.origin}/__sandbox/reset`, { method: 'POST' })
  const products = spec.products.slice(0, DEV_PAGES)
  const port = await freePort()
  const beforeStart = await sandboxOperations(sandbox.origin)
  const started = performance.now()
  const server = await startServer(
    ['run', 'dev', '--', ...dev.args(port)],
    dir,
    env,
    `http://127.0.0.1:${port}/`,
  )
  let ready = 0
  try {
    // Started once its home page answers 200 (startServer waits for any answer).
    const deadline = Date.now() + 60_000
    while (!(await fetch(server.origin)).ok) {
      check(Date.now() < deadline, `${spec.name} (${dev.server}): / did not answer 200 within 60 s`)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    ready = (performance.now() - started) / 1000
    const request = async (id: string): Promise<{ facts: PageFacts; html: string }> => {
      const response = await fetch(new URL(`/products/${id}`, server.origin))
      const html = await response.text()
      check(
        response.status === 200,
        `${spec.name} (${dev.server}): /products/${id} answered ${response.status}\n--- the end of its output:\n${server.output().slice(-3000)}`,
      )
      return { facts: pageFacts(`/products/${id}`, html), html }
    }
    for (const id of products) {
      const { facts } = await request(id)
      checkPage(spec, facts, `${spec.name} (${dev.server}, first request): ${facts.path}`)
    }
    await settle(server)
    const first = apiCalls(beforeStart, await sandboxOperations(sandbox.origin))

    // The edit a developer makes: the product pages' file changes, the server recompiles it.
    const file = join(dir, dev.pageFile)
    const source = await readFile(file, 'utf8')
    const marker = 'data-edited="by the examples test"'
    check(source.includes('<main>'), `${spec.name}: ${dev.pageFile} has no <main> to edit`)
    const beforeEdit = await sandboxOperations(sandbox.origin)
    await writeFile(file, source.replace('<main>', `<main ${marker}>`))
    const editDeadline = Date.now() + 60_000
    let served = await request(products[0] ?? '')
    while (!served.html.includes(marker)) {
      check(
        Date.now() < editDeadline,
        `${spec.name} (${dev.server}): the edit of ${dev.pageFile} not served within 60 s`,
      )
      await new Promise((resolve) => setTimeout(resolve, 500))
      served = await request(products[0] ?? '')
    }
    const pages = [served.facts]
    for (const id of products.slice(1)) pages.push((await request(id)).facts)
    await settle(server)
    const afterEdit = apiCalls(beforeEdit, await sandboxOperations(sandbox.origin))

    for (const page of pages)
      checkPage(spec, page, `${spec.name} (${dev.server}, after the edit): ${page.path}`)
    const lines = server.output().replace(ANSI, '').split('\n')
    const allowed = new Set<string>()
    const failing = lines.filter((line) => {
      if (!WARNING_OR_ERROR.test(line)) return false
      const framework = FRAMEWORK_WARNINGS.find((warning) => warning.line.test(line))
      if (framework === undefined || line.includes('verified-reviews') || /\berror\b|⨯/i.test(line))
        return true
      allowed.add(framework.name)
      return false
    })
    check(
      failing.length === 0,
      `${spec.name}: ${dev.server} printed:\n${failing.join('\n')}\n--- the end of its output:\n${server.output().slice(-6000)}`,
    )
    return { server: dev.server, ready, first, afterEdit, edited: dev.pageFile, pages, allowed: [...allowed] }
  } finally {
    await server.stop()
  }
}

/** What a script example did. */
interface ScriptOutcome {
  name: string
  install: number
  /** Seconds the last script ran. */
  ran: number
  calls: Record<string, number>
  notes: string[]
}

/**
 * Installs a script example, runs its npm scripts in turn against the sandbox, and checks the last one:
 * its last line, the records of the files it writes, and its API calls by operation, exactly.
 */
async function runScript(
  spec: ScriptExampleSpec,
  work: string,
  tarballs: Map<string, string>,
  sandbox: Sandbox,
): Promise<ScriptOutcome> {
  const dir = await copyExample(spec, work, tarballs)
  let started = performance.now()
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env: cleanEnv() })
  const install = (performance.now() - started) / 1000
  const env = cleanEnv({
    VERIFIED_REVIEWS_ORIGIN: sandbox.origin,
    VERIFIED_REVIEWS_CLIENT_ID: sandbox.clientId,
    VERIFIED_REVIEWS_CLIENT_SECRET: sandbox.clientSecret,
    VERIFIED_REVIEWS_WEBSITE_ID: sandbox.websiteId,
    VERIFIED_REVIEWS_GENESIS_SECRET: sandbox.genesisSecret,
  })
  const notes: string[] = []
  let output = ''
  let calls: Record<string, number> = {}
  let ran = 0
  for (const script of spec.scripts) {
    await fetch(`${sandbox.origin}/__sandbox/reset`, { method: 'POST' })
    const before = await sandboxOperations(sandbox.origin)
    started = performance.now()
    output = await run('npm', ['run', '--silent', script], { cwd: dir, env })
    ran = (performance.now() - started) / 1000
    calls = apiCalls(before, await sandboxOperations(sandbox.origin))
    notes.push(`npm run ${script}: ${ran.toFixed(1)} s`)
  }
  const lines = output.trim().split('\n')
  const last = lines.at(-1) ?? ''
  check(
    spec.lastLine.test(last),
    `${spec.name}: its output ends with "${last}", not ${spec.lastLine}:\n${output}`,
  )
  notes.push(...lines.map((line) => `| ${line}`))
  for (const { file, min, fields } of spec.writes) {
    const records = JSON.parse(await readFile(join(dir, file), 'utf8')) as unknown
    check(Array.isArray(records), `${spec.name}: ${file} is not a JSON array`)
    const list = records as Record<string, unknown>[]
    check(list.length >= min, `${spec.name}: ${file} holds ${list.length} records, fewer than ${min}`)
    for (const [index, record] of list.entries()) {
      const missing = fields.filter(
        (field) => record === null || typeof record !== 'object' || !(field in record),
      )
      check(missing.length === 0, `${spec.name}: record ${index} of ${file} lacks ${missing.join(', ')}`)
    }
    notes.push(`${file}: ${list.length} records, each with ${fields.join(', ')}`)
  }
  check(
    JSON.stringify(Object.entries(calls).sort()) === JSON.stringify(Object.entries(spec.calls).sort()),
    `${spec.name}: API calls ${JSON.stringify(calls)}, expected ${JSON.stringify(spec.calls)}`,
  )
  return { name: spec.name, install, ran, calls, notes }
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((total, count) => total + count, 0)
}

/** Where React shows up in an Astro example: an installed `react`, or React code in the built output. */
async function findReact(dir: string, output: string): Promise<string[]> {
  const found: string[] = []
  for (const name of ['react', 'react-dom']) {
    try {
      await stat(join(dir, 'node_modules', name))
      found.push(`node_modules/${name}`)
    } catch {}
  }
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (/\.(m?js|html)$/.test(entry.name)) {
        const text = await readFile(path, 'utf8')
        if (/react\.production|__reactFiber|<astro-island/.test(text)) found.push(relative(dir, path))
      }
    }
  }
  await walk(join(dir, output))
  return found
}

const work = await mkdtemp(join(tmpdir(), 'verified-reviews-examples-'))
const sandbox = await createSandbox({ port: 0 })
const outcomes: Outcome[] = []
const scriptOutcomes: ScriptOutcome[] = []
let failed = false
try {
  const tarballDir = join(work, 'tarballs')
  await mkdir(tarballDir)
  const packing = performance.now()
  const tarballs = await packAll(tarballDir)
  console.log(`# packed ${tarballs.size} packages in ${((performance.now() - packing) / 1000).toFixed(1)} s`)
  for (const spec of chosen) {
    console.log(`--- ${spec.name}: npm install from the tarballs, build against the sandbox`)
    try {
      const outcome = await runExample(spec, work, tarballs, sandbox)
      outcomes.push(outcome)
      for (const note of outcome.notes) console.log(`    ${note}`)
      console.log(
        `    ok: install ${outcome.install.toFixed(1)} s, build ${outcome.build.toFixed(1)} s, ` +
          `${outcome.calls} API calls ${JSON.stringify(outcome.byOperation)} for ${outcome.pages.length} product pages (need ${outcome.bound})`,
      )
    } catch (error) {
      failed = true
      console.error(`    FAILED: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  for (const spec of chosenScripts) {
    console.log(
      `--- ${spec.name}: npm install from the tarballs, ${spec.scripts.join(', ')} against the sandbox`,
    )
    try {
      const outcome = await runScript(spec, work, tarballs, sandbox)
      scriptOutcomes.push(outcome)
      for (const note of outcome.notes) console.log(`    ${note}`)
      console.log(
        `    ok: install ${outcome.install.toFixed(1)} s, run ${outcome.ran.toFixed(1)} s, ` +
          `${sum(outcome.calls)} API calls ${JSON.stringify(outcome.calls)}`,
      )
    } catch (error) {
      failed = true
      console.error(`    FAILED: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
} finally {
  await sandbox.close()
  if (!values.keep) await rm(work, { recursive: true, force: true })
  else console.log(`# kept ${work}`)
}

if (outcomes.length > 0) {
  console.log(
    '\n| example | product pages | API calls of the build | what the pages need | stars | reviews a page | Product nodes a page |',
  )
  console.log('|---|---|---|---|---|---|---|')
  for (const outcome of outcomes) {
    const reviews = outcome.pages.map((page) => page.reviews).join(', ')
    const nodes = outcome.pages.map((page) => page.productNodes).join(', ')
    const stars = outcome.pages.every((page) => page.stars) ? 'yes' : 'no'
    console.log(
      `| ${outcome.name} | ${outcome.pages.length} | ${outcome.calls} ${JSON.stringify(outcome.byOperation)} | ${outcome.bound} | ${stars} | ${reviews} | ${nodes} |`,
    )
  }

  console.log(
    `\n| example | dev server | product pages (each requested once, then again after an edit) | API calls: start and first requests | API calls after editing the page file | stars | reviews a page | Product nodes a page |`,
  )
  console.log('|---|---|---|---|---|---|---|---|')
  for (const outcome of outcomes) {
    const dev = outcome.dev
    if ('none' in dev) {
      console.log(`| ${outcome.name} | none of ours: ${dev.none} | – | – | – | – | – | – |`)
      continue
    }
    const reviews = dev.pages.map((page) => page.reviews).join(', ')
    const nodes = dev.pages.map((page) => page.productNodes).join(', ')
    const stars = dev.pages.every((page) => page.stars) ? 'yes' : 'no'
    console.log(
      `| ${outcome.name} | ${dev.server} | ${dev.pages.length} | ${sum(dev.first)} ${JSON.stringify(dev.first)} | ${sum(dev.afterEdit)} ${JSON.stringify(dev.afterEdit)} | ${stars} | ${reviews} | ${nodes} |`,
    )
  }
}
if (scriptOutcomes.length > 0) {
  console.log('\n| script example | API calls of its run |')
  console.log('|---|---|')
  for (const outcome of scriptOutcomes)
    console.log(`| ${outcome.name} | ${sum(outcome.calls)} ${JSON.stringify(outcome.calls)} |`)
}
const total = chosen.length + chosenScripts.length
const passed = outcomes.length + scriptOutcomes.length
if (failed || passed !== total) {
  console.error(`\n${total - passed} of ${total} examples failed`)
  process.exit(1)
}
