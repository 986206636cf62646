/**
 * Requests per second of the sandbox serving 200-review pages of GET /products/reviews on loopback.
 * The sandbox runs in its own process (the CLI, rate limit off) so the client's work does not count
 * against it; a few keep-alive connections walk the review list page by page through Link headers.
 *
 *   npx -y pnpm@10.34.9 run bench:sandbox [--requests 1500] [--connections 4] [--warmup 60]
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '1500' },
    connections: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '60' },
  },
})
const REQUESTS = Number(values.requests)
const CONNECTIONS = Number(values.connections)
const WARMUP = Number(values.warmup)
const CLI = fileURLToPath(new URL('../../packages/sandbox/src/cli.ts', import.meta.url))
const FIRST_PAGE = '/verified-reviews/v1/published/products/reviews?limit=200'

function startSandbox(): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(
    process.execPath,
    ['--conditions=@verified-reviews/source', CLI, '--port', '0', '--rate-limit', '0'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk
      const origin = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      if (origin) resolve({ child, origin })
    })
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code} before listening`)))
  })
}

async function token(origin: string): Promise<string> {
  const res = await fetch(`${origin}/realms/skeepers/protocol/openid-connect/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from('sandbox-client-id:sandbox-client-secret').toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', audience: 'verified-reviews' }),
  })
  return (await res.json()).access_token
}

/** Walks the review list in a loop, page after page, until `budget` requests have been made. */
async function connection(
  origin: string,
  bearer: string,
  budget: { left: number },
  latencies: number[],
  bytes: number[],
) {
  let next = `${origin}${FIRST_PAGE}`
  while (budget.left > 0) {
    budget.left--
    const started = performance.now()
    const res = await fetch(next, { headers: { Authorization: `Bearer ${bearer}` } })
    const body = await res.arrayBuffer()
    latencies.push(performance.now() - started)
    if (res.status !== 200) throw new Error(`unexpected status ${res.status}`)
    bytes.push(body.byteLength)
    const link = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1]
    next = link ?? `${origin}${FIRST_PAGE}`
  }
}

async function run(origin: string, bearer: string, requests: number) {
  const budget = { left: requests }
  const latencies: number[] = []
  const bytes: number[] = []
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CONNECTIONS }, () => connection(origin, bearer, budget, latencies, bytes)),
  )
  const seconds = (performance.now() - started) / 1000
  return { seconds, latencies: latencies.sort((a, b) => a - b), bytes }
}

const { child, origin } = await startSandbox()
try {
  const bearer = await token(origin)
  await run(origin, bearer, WARMUP)
  const { seconds, latencies, bytes } = await run(origin, bearer, REQUESTS)
  const at = (q: number) =>
    (latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] as number).toFixed(1)
  const kib = bytes.reduce((a, b) => a + b, 0) / bytes.length / 1024
  console.log(
    `GET /products/reviews?limit=200: ${(REQUESTS / seconds).toFixed(0)} requests/s ` +
      `(${REQUESTS} requests over ${CONNECTIONS} connections in ${seconds.toFixed(2)} s; ` +
      `latency p50 ${at(0.5)} ms, p95 ${at(0.95)} ms; ${kib.toFixed(0)} KiB per page)`,
  )
  console.log(
    `node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${new Date().toISOString().slice(0, 10)}`,
  )
} finally {
  child.kill('SIGTERM')
}
