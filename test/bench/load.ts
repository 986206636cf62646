/**
 * `pnpm bench:load`: a loopback load test of the built Next.js demo (apps/next-demo) with autocannon: its
 * product pages (prerendered, ISR) and its reviews route (the island's pages, through the cached client),
 * each for `--duration` seconds. Prints requests per second, p50/p99 latency, errors and non-2xx answers,
 * and the upstream calls the sandbox counted during each run (cached pages should make none). A benchmark:
 * it asserts nothing.
 *
 *   pnpm bench:load [--duration 30] [--connections 20]
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { commitMeasured, loadAverage, measure, ROOT, startSandboxProcess } from './scale/lib.ts'
import { buildPackages } from './scale/next-step.ts'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '30' },
    connections: { type: 'string', default: '20' },
    echo: { type: 'boolean', default: false },
  },
})
const DURATION = Number(values.duration)
const CONNECTIONS = Number(values.connections)
const DEMO = join(ROOT, 'apps/next-demo')
// Inside a folder the demo's .gitignore already ignores, apart from the developer's own .next.
const DIST_DIR = '.next-e2e/load'
const NEXT = join(DEMO, 'node_modules/next/dist/bin/next')

/** The part of autocannon's result this script reads. */
interface LoadResult {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number; average: number }
  errors: number
  timeouts: number
  non2xx: number
  '2xx': number
  /** Answers by status code. */
  statusCodeStats: Record<string, { count: number }>
}
type Autocannon = (options: {
  url: string
  connections: number
  duration: number
  requests: { method: 'GET'; setupRequest: (request: { path: string }) => { path: string } }[]
}) => Promise<LoadResult>
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

function progress(message: string): void {
  process.stderr.write(`[bench:load ${new Date().toISOString().slice(11, 19)}] ${message}\n`)
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const address = server.address()
  server.close()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

/** The answers that were not 2xx, by status: `0`, or `12 (503: 12)`. */
function nonSuccess(result: LoadResult): string {
  if (result.non2xx === 0) return '0'
  const statuses = Object.entries(result.statusCodeStats)
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, { count }]) => `${status}: ${count.toLocaleString('en')}`)
  return `${result.non2xx.toLocaleString('en')} (${statuses.join(', ')})`
}

await buildPackages(values.echo)
const catalogue = JSON.parse(await readFile(join(DEMO, 'lib/catalogue.json'), 'utf8')) as {
  products: { id: string }[]
}
const ids = catalogue.products.map((product) => product.id)
const productPaths = ['en', 'fr', 'de'].flatMap((locale) => ids.map((id) => `/${locale}/products/${id}`))
const reviewPaths = ids.map((id) => `/api/reviews?product_variation_id=${encodeURIComponent(id)}&limit=10`)

progress('starting the sandbox (seed 1, 100 requests/s)')
const sandbox = await startSandboxProcess({ products: 60, reviews: 3000, rateLimit: 100 })
const env = {
  ...sandbox.env,
  NODE_ENV: 'production',
  NEXT_TELEMETRY_DISABLED: '1',
  NEXT_DEMO_DIST_DIR: DIST_DIR,
  VERIFIED_REVIEWS_DIST_DIR: DIST_DIR,
  VERIFIED_REVIEWS_REVALIDATE_SECRET: `load-${randomUUID()}`,
}
let server: ChildProcess | undefined
try {
  progress('next build of the demo')
  await rm(join(DEMO, DIST_DIR), { recursive: true, force: true })
  // next build adds the types of its build folder to the demo's tsconfig.json: it is put back as it was.
  const tsconfig = join(DEMO, 'tsconfig.json')
  const tsconfigText = await readFile(tsconfig, 'utf8')
  const built = await measure(process.execPath, [NEXT, 'build'], {
    cwd: DEMO,
    env,
    echo: values.echo,
  }).finally(() => writeFile(tsconfig, tsconfigText))
  if (built.code !== 0) throw new Error(`next build failed: ${(built.stdout + built.stderr).slice(-4000)}`)
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  server = spawn(process.execPath, [NEXT, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: DEMO,
    env: { ...process.env, ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  for (let attempt = 0; ; attempt++) {
    if (attempt > 600 || server.exitCode !== null) throw new Error('next start did not answer')
    if (
      await fetch(`${origin}/en`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  // Every path once, so that the runs measure a warm server (the reviews route fills its cache). The
  // route keeps half of the sandbox's rate for pages: a 503 is asked again after its Retry-After.
  for (const path of [...productPaths, ...reviewPaths]) {
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(`${origin}${path}`)
      await response.arrayBuffer()
      if (response.ok) break
      if (response.status !== 503 || attempt === 5) throw new Error(`${path} answered ${response.status}`)
      await new Promise((resolve) =>
        setTimeout(resolve, 1000 * Number(response.headers.get('retry-after') ?? 1)),
      )
    }
  }
  const rows: string[] = []
  for (const [name, paths] of [
    [`product pages (${productPaths.length} paths, ISR)`, productPaths],
    [`reviews route (${reviewPaths.length} paths, cached client)`, reviewPaths],
  ] as const) {
    await sandbox.takeStats()
    progress(`autocannon: ${name}, ${DURATION} s, ${CONNECTIONS} connections`)
    let next = 0
    const result = await autocannon({
      url: origin,
      connections: CONNECTIONS,
      duration: DURATION,
      requests: [
        {
          method: 'GET',
          setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] as string }),
        },
      ],
    })
    const operations = await sandbox.takeStats()
    const upstream = Object.values(operations).reduce((sum, count) => sum + count, 0)
    rows.push(
      `| ${name} | ${result.requests.total.toLocaleString('en')} | ${Math.round(result.requests.average).toLocaleString('en')} | ` +
        `${result.latency.p50} ms | ${result.latency.p99} ms | ${result.errors + result.timeouts} | ${nonSuccess(result)} | ` +
        `${upstream}${upstream === 0 ? '' : ` (${JSON.stringify(operations)})`} |`,
    )
  }
  console.log(
    `# bench:load: the Next.js demo built and served by next start on loopback, ${DURATION} s per run, ` +
      `${CONNECTIONS} connections (${commitMeasured()}, node ${process.version}, ${cpus().length} cores, ` +
      `${new Date().toISOString().slice(0, 16)}Z, load average ${loadAverage()})\n`,
  )
  console.log(
    '| target | requests | requests/s | p50 | p99 | errors | non-2xx | upstream API calls during the run |',
  )
  console.log('|---|---|---|---|---|---|---|---|')
  for (const line of rows) console.log(line)
} finally {
  if (server !== undefined && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve))
    server.kill('SIGTERM')
    await exited
  }
  await sandbox.close()
}
