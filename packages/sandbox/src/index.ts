import { resolveOptions, SandboxOptionError, type SandboxOptions } from './internal/options.ts'
import { startSandbox } from './internal/sandbox.ts'

export type { Operation as SandboxOperation } from './internal/context.ts'
export type { FaultRule } from './internal/faults.ts'
export type { SandboxOptions }
export { SandboxOptionError }

/** A running sandbox: where it listens, the credentials it accepts, and how to stop or reset it. */
export interface Sandbox {
  /**
   * `http://host:port`; every API lives at its production path under this origin. When listening on a
   * wildcard address, the loopback address of the same family (`http://127.0.0.1:4010`).
   */
  readonly origin: string
  readonly port: number
  /**
   * The address the server listens on, as the system reports it: `127.0.0.1:4010`, `[::1]:4010`, or
   * `0.0.0.0:4010` / `[::]:4010` when bound to every interface.
   */
  readonly address: string
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

/** The warning given when the sandbox listens on every interface. */
function wildcardWarning(address: string, origin: string): string {
  return (
    `Warning: the Verified Reviews sandbox listens on ${address}, every network interface: any program ` +
    'on a machine that can reach this one can read its data, and drive its state through /__sandbox/ ' +
    '(the Host check there stops web pages, not programs). Bind to 127.0.0.1 unless other machines ' +
    `must reach it. From this machine: ${origin}`
  )
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
  if (server.wildcard) (options.logger ?? console).warn(wildcardWarning(server.address, server.origin))
  const { clientId, clientSecret, websiteId, genesisSecret } = store.settings
  return {
    origin: server.origin,
    port: server.port,
    address: server.address,
    clientId,
    clientSecret,
    websiteId,
    genesisSecret,
    close: () => server.close(),
    reset: async () => store.reset(),
  }
}
