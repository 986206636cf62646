/**
 * What `pnpm bench:scale` and its smoke test share: a sandbox in a process of its own, a child process
 * measured (wall time, peak RSS of its largest process and of its whole tree), generated product pages,
 * and the `verified-reviews inject` step.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const SANDBOX_CLI = join(ROOT, 'packages/sandbox/src/cli.ts')
const INJECT_CLI = join(ROOT, 'packages/inject/src/cli.ts')
const RSS_PROBE = fileURLToPath(new URL('./rss-probe.mjs', import.meta.url))
export const SOURCE = '--conditions=@verified-reviews/source'
export const SITE = 'https://shop.example'

/** A sandbox CLI running in its own process. */
export interface SandboxProcess {
  origin: string
  child: ChildProcess
  /** `GET /__sandbox/stats`, then zeroes the counters: the calls by operation. */
  takeStats(): Promise<Record<string, number>>
  /**
   * The same, with the time the sandbox spent serving those calls (`servingMs`, overlapping calls
   * counted once): the API time of a build, as its own clock cannot tell it (an answer that arrives while
   * the build is busy, as when a sync asks for its next page before storing the last, waits on the
   * build's time).
   */
  takeUsage(): Promise<{ operations: Record<string, number>; apiSeconds: number }>
  /** `POST /__sandbox/product-reviews`. */
  addReviews(items: unknown[]): Promise<void>
  /** The `VERIFIED_REVIEWS_*` variables of a client of this sandbox. */
  env: Record<string, string>
  close(): Promise<void>
}

/** Starts the sandbox CLI with this catalogue; resolves once it listens. */
export async function startSandboxProcess(options: {
  products: number
  reviews: number
  rateLimit: number
  seed?: number
}): Promise<SandboxProcess> {
  // Some 4 KB a review: past a few hundred thousand reviews the sandbox needs more than V8's default heap.
  const heapMiB = Math.max(4096, Math.ceil(options.reviews / 1000) * 12)
  const child = spawn(
    process.execPath,
    [
      SOURCE,
      `--max-old-space-size=${heapMiB}`,
      SANDBOX_CLI,
      '--port',
      '0',
      '--seed',
      String(options.seed ?? 1),
      '--products',
      String(options.products),
      '--reviews',
      String(options.reviews),
      '--rate-limit',
      String(options.rateLimit),
      '--token-ttl',
      '86400',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const origin = await new Promise<string>((resolve, reject) => {
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk
      const found = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      if (found) resolve(found)
    })
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code} before listening`)))
  })
  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${origin}/__sandbox/${path}`, {
      method,
      headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok)
      throw new Error(`${method} /__sandbox/${path}: ${response.status} ${await response.text()}`)
    return response.status === 204 ? undefined : response.json()
  }
  const takeUsage = async () => {
    const { operations, servingMs } = (await admin('GET', 'stats')) as {
      operations: Record<string, number>
      servingMs: number
    }
    await admin('DELETE', 'stats')
    return { operations, apiSeconds: servingMs / 1000 }
  }
  return {
    origin,
    child,
    env: {
      VERIFIED_REVIEWS_ORIGIN: origin,
      VERIFIED_REVIEWS_CLIENT_ID: 'sandbox-client-id',
      VERIFIED_REVIEWS_CLIENT_SECRET: 'sandbox-client-secret',
    },
    takeStats: async () => (await takeUsage()).operations,
    takeUsage,
    async addReviews(items) {
      // The admin route takes bodies of up to 1 MiB: 100 reviews a request.
      for (let start = 0; start < items.length; start += 100) {
        await admin('POST', 'product-reviews', items.slice(start, start + 100))
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** What a measured child process did. */
export interface Measured {
  code: number | null
  stdout: string
  stderr: string
  /** Wall time, seconds. */
  seconds: number
  /** Peak RSS of the largest single process of the tree, MiB (each Node process reports its own at exit). */
  peakProcessMiB: number
  /** Peak of the RSS summed over the process tree, MiB, sampled every 100 ms. */
  peakTreeMiB: number
  /** The Node processes of the tree, largest peak RSS first: what each ran, and its peak, MiB. */
  processes: { script: string; peakMiB: number }[]
  /**
   * Seconds the processes of the tree waited for the API (`VERIFIED_REVIEWS_ORIGIN` of the child's
   * environment): from sending each request to its answer, overlapping requests of a process counted
   * once, summed over the processes. The wall time less this is the run's own time. The `astro` and
   * `next` steps replace it with the sandbox's own figure (`takeUsage`).
   */
  apiSeconds: number
  /**
   * CPU seconds of the tree's Node processes (user and system, every thread), summed: less sensitive to
   * the machine's other load than the wall time. A process killed before its exit (Next.js's build
   * workers) counts what it had used at its last report, at most a second before.
   */
  cpuSeconds: number
}

/** Every process below `root` (inclusive), from /proc. */
async function tree(root: number): Promise<number[]> {
  const parents = new Map<number, number[]>()
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => undefined)
    if (stat === undefined) continue
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    const list = parents.get(ppid) ?? []
    list.push(Number(name))
    parents.set(ppid, list)
  }
  const found = [root]
  for (let i = 0; i < found.length; i++) found.push(...(parents.get(found[i] as number) ?? []))
  return found
}

async function rssOf(pid: number): Promise<number> {
  const statm = await readFile(`/proc/${pid}/statm`, 'utf8').catch(() => undefined)
  return statm === undefined ? 0 : Number(statm.split(' ')[1]) * 4096
}

/**
 * Runs a command as a measured child: wall time, the peak RSS each Node process of its tree reports
 * at exit (`process.resourceUsage().maxRSS`, through a preloaded probe, which also times the requests
 * to the API), and the peak RSS of the tree summed, sampled every 100 ms from /proc.
 */
export async function measure(
  command: string,
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; echo?: boolean } = {},
): Promise<Measured> {
  const probeDir = await mkdtemp(join(tmpdir(), 'vr-bench-rss-'))
  // What the runs before this one left for the kernel to write (a build's pages, an SQLite file) is on
  // disk before the clock starts: else the run pays for that writeback, and each run of a series is
  // slower than the one before it.
  flushDisk()
  const nodeOptions = [process.env.NODE_OPTIONS ?? '', `--import=${pathToFileURL(RSS_PROBE).href}`]
    .join(' ')
    .trim()
  const started = performance.now()
  const child = spawn(command, [...args], {
    cwd: options.cwd ?? ROOT,
    env: {
      ...process.env,
      ...options.env,
      NODE_OPTIONS: nodeOptions,
      VR_BENCH_RSS_DIR: probeDir,
      VR_BENCH_API_ORIGIN: options.env?.VERIFIED_REVIEWS_ORIGIN ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk
    if (options.echo) process.stderr.write(chunk)
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk
    if (options.echo) process.stderr.write(chunk)
  })
  let peakTree = 0
  let sampling = true
  const sampler = (async () => {
    while (sampling && child.pid !== undefined) {
      const pids = await tree(child.pid)
      let sum = 0
      for (const pid of pids) sum += await rssOf(pid)
      peakTree = Math.max(peakTree, sum)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })()
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  const seconds = (performance.now() - started) / 1000
  sampling = false
  await sampler
  let peakProcess = 0
  let apiMs = 0
  let cpuMs = 0
  const mib = (bytes: number) => Math.round(bytes / 2 ** 20)
  const processes: Measured['processes'] = []
  for (const name of await readdir(probeDir)) {
    if (!name.endsWith('.json')) continue
    const probed = JSON.parse(await readFile(join(probeDir, name), 'utf8')) as {
      maxRSS: number
      apiMs: number
      cpuMs?: number
      script?: string
    }
    peakProcess = Math.max(peakProcess, probed.maxRSS * 1024)
    apiMs += probed.apiMs
    cpuMs += probed.cpuMs ?? 0
    processes.push({ script: probed.script ?? '?', peakMiB: mib(probed.maxRSS * 1024) })
  }
  await rm(probeDir, { recursive: true, force: true })
  processes.sort((a, b) => b.peakMiB - a.peakMiB)
  return {
    code,
    stdout,
    stderr,
    seconds,
    peakProcessMiB: mib(Math.max(peakProcess, 0)),
    peakTreeMiB: mib(Math.max(peakTree, peakProcess)),
    processes,
    apiSeconds: apiMs / 1000,
    cpuSeconds: cpuMs / 1000,
  }
}

/** What {@link setAside} moved out of the way, deleted by {@link emptyTrash}. */
const trash: string[] = []

/**
 * Moves `path` (a build's output, a store, a step's folder) out of the way when it exists, to be deleted
 * by {@link emptyTrash} once every measurement is over, rather than deleting it now. On a disk that
 * discards the blocks it frees (this machine's ext4 is mounted with `discard`), deleting a build's
 * 10,000 pages slows every file write of the following half minute or more, `sync` or not: writing
 * 10,000 pages of 9 KB took 5.9 to 17.2 s after such a deletion against 1.9 to 6.8 s without one, which
 * the build that runs next would pay. A rename within the same folder changes one directory entry.
 */
export async function setAside(path: string): Promise<void> {
  const aside = `${path}.aside-${process.pid}-${trash.length}`
  try {
    await rename(path, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  trash.push(aside)
}

/** Deletes what {@link setAside} moved: at the end of the benchmark, after its last measurement. */
export async function emptyTrash(): Promise<void> {
  for (const path of trash.splice(0)) await rm(path, { recursive: true, force: true })
}

/** `sync(1)`: the kernel writes every file's pending data to disk; returns when it has (throws when `sync` fails). */
function flushDisk(): void {
  execFileSync('sync', { stdio: 'ignore' })
}

/** `SKU-001` … as the sandbox names its catalogue of `products` products. */
export function productIds(products: number): string[] {
  const width = Math.max(3, String(products).length)
  return Array.from({ length: products }, (_, i) => `SKU-${String(i + 1).padStart(width, '0')}`)
}

/** Writes one static product page per product, each marking its product, as a shop's build would. */
export async function writeProductPages(dir: string, ids: readonly string[]): Promise<void> {
  const description = 'A product page of the benchmark, with some text around the product. '.repeat(40)
  for (let start = 0; start < ids.length; start += 500) {
    await Promise.all(
      ids.slice(start, start + 500).map(async (id) => {
        const folder = join(dir, 'products', id.toLowerCase())
        await mkdir(folder, { recursive: true })
        await writeFile(
          join(folder, 'index.html'),
          `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${id}</title>\n` +
            `<link rel="canonical" href="${SITE}/products/${id.toLowerCase()}/">\n` +
            `<meta name="verified-reviews:product" content="${id}">\n</head>\n<body>\n<main>\n<h1>${id}</h1>\n` +
            `<p>${description}</p>\n</main>\n</body>\n</html>\n`,
        )
      }),
    )
  }
}

/** The report `verified-reviews inject --json` prints. */
export interface InjectJsonReport {
  pages: number
  markedPages: number
  changedPages: number
  unchangedPages: number
  pagesWithoutReviews: number
  skippedPages: unknown[]
  failedPages: unknown[]
  products: number
  apiCalls: { reviews: number; ratings: number; products: number; total: number }
  sync: { mode: string; newReviews: number; affectedProductIds: string[]; calls: number } | undefined
}

/** One run of `verified-reviews inject <dir> --store <store> --json`, measured, with the API calls it made. */
export interface InjectRun extends Measured {
  report: InjectJsonReport
  /** Requests the sandbox counted, by operation (token requests included). */
  operations: Record<string, number>
}

export async function runInject(
  sandbox: SandboxProcess,
  dir: string,
  store: string,
  echo = false,
): Promise<InjectRun> {
  await sandbox.takeStats()
  const run = await measure(
    process.execPath,
    [SOURCE, INJECT_CLI, 'inject', dir, '--site', SITE, '--store', store, '--json'],
    { env: sandbox.env, echo },
  )
  if (run.code !== 0) throw new Error(`verified-reviews inject exited with ${run.code}: ${run.stderr}`)
  return { ...run, report: JSON.parse(run.stdout) as InjectJsonReport, operations: await sandbox.takeStats() }
}

/** The lower bound of API calls for R reviews and N products: ceil(R/200) + ceil(N/200) + tokens. */
export function lowerBound(reviews: number, products: number, tokens: number): number {
  return Math.ceil(reviews / 200) + Math.ceil(products / 200) + tokens
}

/** The sum of the operations counted, and the token requests among them. */
export function callsOf(operations: Record<string, number>): { total: number; tokens: number } {
  const total = Object.values(operations).reduce((sum, count) => sum + count, 0)
  return { total, tokens: operations['token.published'] ?? 0 }
}

/** `count` partial reviews spread over the products named, as `POST /__sandbox/product-reviews` takes them. */
export function newReviews(
  ids: readonly string[],
  count: number,
  seed = 7,
): { product_variation_id: string }[] {
  let state = seed
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
  return Array.from({ length: count }, () => ({
    product_variation_id: ids[Math.floor(next() * ids.length)] as string,
  }))
}

/** The commit measured (`git describe`), `-dirty` when the working tree has changes. */
export function commitMeasured(): string {
  try {
    return execFileSync('git', ['describe', '--always', '--dirty', '--abbrev=10'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim()
  } catch {
    return 'unknown commit'
  }
}

/** The load average over 1, 5 and 15 minutes: other work on the machine moves wall times. */
export function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(', ')
}

/** The average size of the files named, bytes (0 for none). */
export async function averageBytes(paths: readonly string[]): Promise<number> {
  let total = 0
  for (const path of paths) total += (await stat(path)).size
  return paths.length === 0 ? 0 : total / paths.length
}
