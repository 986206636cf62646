import { resolveOptions, SandboxOptionError, type SandboxOptions } from './internal/options.ts'
import { startSandbox } from './internal/sandbox.ts'

export type { Operation as SandboxOperation } from './internal/context.ts'
export type { FaultRule } from './internal/faults.ts'
export type { SandboxOptions }
export { SandboxOptionError }

/** A running sandbox: where it listens, the credentials it accepts, and how to stop or reset it. */
export interface Sandbox {
  /** `http://host:port`; every API lives at its production path under this origin. */
  readonly origin: string
  readonly port: number
  readonly clientId: string
  readonly clientSecret: string
  /** The website of the credentials (purchase events, legacy and Genesis APIs). */
  readonly websiteId: string
  readonly genesisSecret: string
  /** Stops listening and drops open connections. */
  close(): Promise<void>
  /** Back to the seeded state: data, purchase events, tokens, statistics and fault rules. */
  reset(): Promise<void>
}

/**
 * Starts a local, stateful emulator of the Verified Reviews APIs with seeded data.
 *
 * @example
 * const sb = await createSandbox({ seed: 1 })
 * // point a client at sb.origin with sb.clientId / sb.clientSecret
 * await sb.close()
 */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const resolved = resolveOptions(options)
  const { store, server } = await startSandbox(resolved)
  const { clientId, clientSecret, websiteId, genesisSecret } = store.settings
  return {
    origin: server.origin,
    port: server.port,
    clientId,
    clientSecret,
    websiteId,
    genesisSecret,
    close: () => server.close(),
    reset: async () => store.reset(),
  }
}
