// Builds and starts apps/next-demo against a sandbox for the browser tests of next-demo.test.ts.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readdir, rm, stat } from 'node:fs/promises'
import { createServer, request as httpRequest, type Server } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createSandbox, type Sandbox } from '@verified-reviews/sandbox'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const DEMO = join(ROOT, 'apps/next-demo')
export const DIST_DIR = '.next-e2e'

/** A proxy in front of the sandbox that keeps every access token the token endpoints hand out. */
export interface TokenProxy {
  origin: string
  tokens: Set<string>
  close(): Promise<void>
}

export interface DemoApp {
  origin: string
  sandbox: Sandbox
  proxy: TokenProxy
  revalidateSecret: string
  /** Operations counted by the sandbox during `next build`. */
  buildCalls: Record<string, number>
  buildOutput: string
  close(): Promise<void>
}

async function newestMtime(dir: string): Promise<number> {
  let newest = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !entry.name.includes('.test.')) {
      newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs)
    }
  }
  return newest
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) resolve(output)
      else reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`))
    })
  })
}

/** The demo consumes the packages' dist (see apps/next-demo/README.md): build those older than their src. */
async function buildPackages(): Promise<void> {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
  for (const name of ['core', 'react', 'next']) {
    const dir = join(ROOT, 'packages', name)
    const built = await stat(join(dir, 'dist/index.js')).then(
      (file) => file.mtimeMs,
      () => 0,
    )
    if (built < (await newestMtime(join(dir, 'src')))) {
      await run(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: dir })
    }
  }
}

async function freePort(): Promise<number> {
  const server = createNetServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (typeof address !== 'object' || address === null) throw new Error('no port')
  return address.port
}

async function startProxy(target: string): Promise<TokenProxy> {
  const tokens = new Set<string>()
  const upstream = new URL(target)
  const server: Server = createServer((req, res) => {
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          const body = Buffer.concat(chunks)
          if (req.url?.includes('token')) {
            const token = /"access_token"\s*:\s*"([^"]+)"/.exec(body.toString())?.[1]
            if (token !== undefined) tokens.add(token)
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          res.end(body)
        })
      },
    )
    forward.on('error', () => {
      res.writeHead(502)
      res.end()
    })
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (typeof address !== 'object' || address === null) throw new Error('no proxy address')
  return {
    origin: `http://127.0.0.1:${address.port}`,
    tokens,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

async function waitUntilServing(origin: string, server: ChildProcess, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}:\n${output()}`)
    try {
      const response = await fetch(`${origin}/en`)
      if (response.ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`next start did not answer:\n${output()}`)
}

/**
 * Builds the demo with `next build` against a new sandbox (seed 1, a random client secret, behind a proxy
 * that records the tokens it hands out), counting the sandbox calls of the build, then serves it with
 * `next start` on a free port.
 */
export async function startDemo(): Promise<DemoApp> {
  await buildPackages()
  const sandbox = await createSandbox({ seed: 1, clientSecret: `e2e-${randomUUID()}` })
  const proxy = await startProxy(sandbox.origin)
  const revalidateSecret = `revalidate-${randomUUID()}`
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    NEXT_DEMO_DIST_DIR: DIST_DIR,
    VERIFIED_REVIEWS_DIST_DIR: DIST_DIR,
    VERIFIED_REVIEWS_ORIGIN: proxy.origin,
    VERIFIED_REVIEWS_CLIENT_ID: sandbox.clientId,
    VERIFIED_REVIEWS_CLIENT_SECRET: sandbox.clientSecret,
    VERIFIED_REVIEWS_WEBSITE_ID: sandbox.websiteId,
    VERIFIED_REVIEWS_REVALIDATE_SECRET: revalidateSecret,
  }
  const next = join(DEMO, 'node_modules/next/dist/bin/next')
  await rm(join(DEMO, DIST_DIR), { recursive: true, force: true })
  await fetch(`${sandbox.origin}/__sandbox/stats`, { method: 'DELETE' })
  const buildOutput = await run(process.execPath, [next, 'build'], { cwd: DEMO, env })
  const stats = (await (await fetch(`${sandbox.origin}/__sandbox/stats`)).json()) as {
    operations: Record<string, number>
  }

  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const server = spawn(process.execPath, [next, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: DEMO,
    env,
  })
  let serverOutput = ''
  server.stdout?.on('data', (chunk: Buffer) => {
    serverOutput += chunk.toString()
  })
  server.stderr?.on('data', (chunk: Buffer) => {
    serverOutput += chunk.toString()
  })
  try {
    await waitUntilServing(origin, server, () => serverOutput)
  } catch (error) {
    server.kill()
    await proxy.close()
    await sandbox.close()
    throw error
  }

  return {
    origin,
    sandbox,
    proxy,
    revalidateSecret,
    buildCalls: stats.operations,
    buildOutput,
    async close() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve))
        server.kill()
        await exited
      }
      await proxy.close()
      await sandbox.close()
    },
  }
}

/** Every file under `dir`, with its path. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}
