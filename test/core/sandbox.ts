import { type ClientOptions, createClient, type VerifiedReviewsClient } from '@verified-reviews/core'
import { createSandbox, type Sandbox, type SandboxOptions } from '@verified-reviews/sandbox'
import { afterAll, beforeAll, beforeEach } from 'vitest'

/** A fault rule of `POST /__sandbox/faults`. */
export interface Fault {
  operation: string
  status?: number
  rate?: number
  latencyMs?: number
  truncate?: boolean
  count?: number
}

/** A running sandbox with the admin calls the tests use. */
export interface TestSandbox {
  sandbox: Sandbox
  /** A client of this sandbox; options override the test defaults. */
  client(options?: ClientOptions): VerifiedReviewsClient
  /** API requests served so far (`GET /__sandbox/stats`). */
  stats(): Promise<{ total: number; operations: Record<string, number> }>
  faults(rules: Fault[]): Promise<void>
  expireTokens(): Promise<void>
  admin(method: string, path: string, body?: unknown): Promise<unknown>
  close(): Promise<void>
}

export async function startSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const sandbox = await createSandbox(options)
  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${sandbox.origin}/__sandbox/${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok)
      throw new Error(`${method} /__sandbox/${path}: ${response.status} ${await response.text()}`)
    const text = await response.text()
    return text === '' ? undefined : JSON.parse(text)
  }
  return {
    sandbox,
    client: (options = {}) =>
      createClient({
        origin: sandbox.origin,
        clientId: sandbox.clientId,
        clientSecret: sandbox.clientSecret,
        websiteId: sandbox.websiteId,
        genesisSecret: sandbox.genesisSecret,
        ...options,
      }),
    stats: async () => (await admin('GET', 'stats')) as { total: number; operations: Record<string, number> },
    faults: async (rules) => {
      await admin('POST', 'faults', rules)
    },
    expireTokens: async () => {
      await admin('POST', 'tokens/expire')
    },
    admin,
    close: () => sandbox.close(),
  }
}

/**
 * Starts a sandbox for the calling test file, closes it after the file, and puts it back to its
 * seeded state (data, statistics, faults, tokens) before each test.
 */
export function useSandbox(options: SandboxOptions = {}): TestSandbox {
  let live: TestSandbox | undefined
  const current = () => {
    if (live === undefined) throw new Error('the sandbox starts in beforeAll; use it inside tests')
    return live
  }
  beforeAll(async () => {
    live = await startSandbox(options)
  })
  afterAll(async () => {
    await live?.close()
  })
  beforeEach(async () => {
    await current().sandbox.reset()
  })
  return {
    get sandbox() {
      return current().sandbox
    },
    client: (clientOptions) => current().client(clientOptions),
    stats: () => current().stats(),
    faults: (rules) => current().faults(rules),
    expireTokens: () => current().expireTokens(),
    admin: (method, path, body) => current().admin(method, path, body),
    close: () => current().close(),
  }
}
