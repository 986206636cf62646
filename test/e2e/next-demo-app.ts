// Builds and serves Next.js apps (the demo, the Cache Components fixture) against a sandbox, for the e2e tests.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createSandbox, type Sandbox } from '@verified-reviews/sandbox'
import { freePort } from '../fixtures/free-port.ts'
import { run, startTokenProxy, type TokenProxy } from './support.ts'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const DEMO = join(ROOT, 'apps/next-demo')
export const DIST_DIR = '.next-e2e'

/** A Next.js app built and served against its own sandbox. */
export interface NextApp {
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

/**
 * Runs `task` while holding a lock directory (created atomically), so that the test files running at
 * once do not build the same packages together; a lock older than `staleMs` is taken over.
 */
async function withLock<T>(path: string, task: () => Promise<T>, staleMs = 300_000): Promise<T> {
  for (;;) {
    try {
      await mkdir(path)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const age = Date.now() - ((await stat(path).catch(() => undefined))?.mtimeMs ?? Date.now())
      if (age > staleMs) await rm(path, { recursive: true, force: true })
      else await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  try {
    return await task()
  } finally {
    await rm(path, { recursive: true, force: true })
  }
}

/** The Next.js apps consume the packages' dist (see apps/next-demo/README.md): build those older than their src. */
export async function buildPackages(): Promise<void> {
  await withLock(join(tmpdir(), 'verified-reviews-e2e-packages.lock'), buildStalePackages)
}

async function buildStalePackages(): Promise<void> {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
  for (const name of ['core', 'react', 'next', 'redis']) {
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

async function waitUntilServing(origin: string, server: ChildProcess, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}:\n${output()}`)
    try {
      const response = await fetch(origin)
      if (response.status < 500) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`next start did not answer:\n${output()}`)
}

/** A Next.js app built with `next build` against its own sandbox, not served yet. */
export interface BuiltNextApp {
  dir: string
  sandbox: Sandbox
  proxy: TokenProxy
  revalidateSecret: string
  /** The environment of `next build`, which `next start` gets too. */
  env: NodeJS.ProcessEnv
  /** Operations counted by the sandbox during `next build`. */
  buildCalls: Record<string, number>
  buildOutput: string
  close(): Promise<void>
}

/** One `next start` of a built app. */
export interface NextServer {
  origin: string
  /** What the server printed so far. */
  output(): string
  close(): Promise<void>
}

export const NEXT = join(ROOT, 'apps/next-demo/node_modules/next/dist/bin/next')

/**
 * Builds a Next.js app (`dir`, building into `distDir`) with `next build` against a new sandbox (seed 1, a
 * random client secret, behind a proxy that records the tokens it hands out), counting the sandbox calls
 * of the build. `extraEnv` is added to the build's environment (and to each `next start`'s).
 */
export async function buildNextApp(
  dir: string,
  distDir = DIST_DIR,
  extraEnv: Record<string, string> = {},
): Promise<BuiltNextApp> {
  await buildPackages()
  const sandbox = await createSandbox({ seed: 1, clientSecret: `e2e-${randomUUID()}` })
  const proxy = await startTokenProxy(sandbox.origin)
  const revalidateSecret = `revalidate-${randomUUID()}`
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    NEXT_DEMO_DIST_DIR: distDir,
    VERIFIED_REVIEWS_DIST_DIR: distDir,
    VERIFIED_REVIEWS_ORIGIN: proxy.origin,
    VERIFIED_REVIEWS_CLIENT_ID: sandbox.clientId,
    VERIFIED_REVIEWS_CLIENT_SECRET: sandbox.clientSecret,
    VERIFIED_REVIEWS_WEBSITE_ID: sandbox.websiteId,
    VERIFIED_REVIEWS_REVALIDATE_SECRET: revalidateSecret,
    ...extraEnv,
  }
  const close = async () => {
    await proxy.close()
    await sandbox.close()
  }
  await rm(join(dir, distDir), { recursive: true, force: true })
  await fetch(`${sandbox.origin}/__sandbox/stats`, { method: 'DELETE' })
  let buildOutput: string
  try {
    buildOutput = await run(process.execPath, [NEXT, 'build'], { cwd: dir, env })
  } catch (error) {
    await close()
    throw error
  }
  const stats = (await (await fetch(`${sandbox.origin}/__sandbox/stats`)).json()) as {
    operations: Record<string, number>
  }
  return { dir, sandbox, proxy, revalidateSecret, env, buildCalls: stats.operations, buildOutput, close }
}

/** Serves a built app with `next start` on a free port, with `env` added to the build's environment. */
export async function serveNextApp(app: BuiltNextApp, env: Record<string, string> = {}): Promise<NextServer> {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const server = spawn(process.execPath, [NEXT, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: app.dir,
    env: { ...app.env, ...env },
  })
  let serverOutput = ''
  server.stdout?.on('data', (chunk: Buffer) => {
    serverOutput += chunk.toString()
  })
  server.stderr?.on('data', (chunk: Buffer) => {
    serverOutput += chunk.toString()
  })
  const close = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve))
      server.kill()
      await exited
    }
  }
  try {
    await waitUntilServing(origin, server, () => serverOutput)
  } catch (error) {
    await close()
    throw error
  }
  return { origin, output: () => serverOutput, close }
}

/**
 * Builds a Next.js app (`dir`, building into `distDir`) against a new sandbox (see {@link buildNextApp}),
 * then serves it with `next start` on a free port.
 */
export async function startNextApp(dir: string, distDir = DIST_DIR): Promise<NextApp> {
  const app = await buildNextApp(dir, distDir)
  let server: NextServer
  try {
    server = await serveNextApp(app)
  } catch (error) {
    await app.close()
    throw error
  }
  return {
    origin: server.origin,
    sandbox: app.sandbox,
    proxy: app.proxy,
    revalidateSecret: app.revalidateSecret,
    buildCalls: app.buildCalls,
    buildOutput: app.buildOutput,
    async close() {
      await server.close()
      await app.close()
    },
  }
}

/** Every file under `dir`, with its path. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}
