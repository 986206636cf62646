/**
 * The `reads` step: 1,000 concurrent identical cold reads through a client's cache make one upstream
 * call, in one process (memory cache) and across two processes sharing a Redis cache (500 reads each,
 * started at the same instant), when `redis-server` is on the PATH.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { measure, type SandboxProcess, SOURCE, startSandboxProcess } from './lib.ts'
import { progress, type StepContext, type StepResult } from './step.ts'

const CHILD = fileURLToPath(new URL('./reads-child.ts', import.meta.url))

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  server.close()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

async function startRedis(): Promise<{ url: string; child: ChildProcess } | undefined> {
  const port = await freePort()
  const child = spawn(
    process.env.REDIS_SERVER ?? 'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  )
  const started = await new Promise<boolean>((resolve) => {
    child.once('error', () => resolve(false))
    child.stdout?.on('data', (chunk: Buffer) => {
      if (/Ready to accept connections/i.test(String(chunk))) resolve(true)
    })
    child.once('exit', () => resolve(false))
  })
  return started ? { url: `redis://127.0.0.1:${port}`, child } : undefined
}

async function reads(sandbox: SandboxProcess, count: number, extra: string[], echo: boolean) {
  const run = await measure(process.execPath, [SOURCE, CHILD, '--reads', String(count), ...extra], {
    env: sandbox.env,
    echo,
  })
  if (run.code !== 0) throw new Error(`the reads child exited with ${run.code}: ${run.stderr}`)
  return JSON.parse(run.stdout) as { reads: number; milliseconds: number }
}

export async function runReadsStep(context: StepContext): Promise<StepResult> {
  progress('reads: 1,000 concurrent identical cold reads')
  const sandbox = await startSandboxProcess({ products: 60, reviews: 3000, rateLimit: 0 })
  const notes: string[] = ['']
  try {
    await sandbox.takeStats()
    const one = await reads(sandbox, 1000, [], context.echo)
    const calls = (await sandbox.takeStats())['products.reviews.list'] ?? 0
    notes.push(
      `1,000 concurrent identical cold reads in one process (memory cache): ${calls} upstream call` +
        `${calls === 1 ? '' : 's'} (all answered in ${one.milliseconds.toFixed(0)} ms).`,
    )
    const redis = await startRedis()
    if (redis === undefined) {
      notes.push('Across two processes: not run (no redis-server on the PATH).')
    } else {
      try {
        const startAt = String(Date.now() + 3000)
        const extra = ['--redis', redis.url, '--start-at', startAt, '--product', 'SKU-002']
        const both = await Promise.all([
          reads(sandbox, 500, extra, context.echo),
          reads(sandbox, 500, extra, context.echo),
        ])
        const shared = (await sandbox.takeStats())['products.reviews.list'] ?? 0
        notes.push(
          `1,000 concurrent identical cold reads across two processes (500 each, one Redis cache): ${shared} upstream ` +
            `call${shared === 1 ? '' : 's'} (answered in ${both.map((run) => run.milliseconds.toFixed(0)).join(' and ')} ms).`,
        )
      } finally {
        redis.child.kill('SIGTERM')
      }
    }
  } finally {
    await sandbox.close()
  }
  return { rows: [], notes }
}
