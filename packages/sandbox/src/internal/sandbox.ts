import type { Route } from './context.ts'
import type { ResolvedOptions } from './options.ts'
import { adminRoutes } from './routes/admin.ts'
import { genesisRoutes } from './routes/genesis.ts'
import { legacyRoutes } from './routes/legacy.ts'
import { publishedRoutes } from './routes/published.ts'
import { purchaseEventRoutes } from './routes/purchase-events.ts'
import { tokenRoutes } from './routes/tokens.ts'
import { type RunningServer, startServer } from './server.ts'
import { SandboxStore } from './state.ts'

/** Every route of the sandbox, in matching order. */
export function sandboxRoutes(store: SandboxStore): Route[] {
  return [
    ...tokenRoutes(store),
    ...publishedRoutes,
    ...purchaseEventRoutes,
    ...legacyRoutes,
    ...genesisRoutes,
    ...adminRoutes(store),
  ]
}

/** Seeds a store and serves every route over it. */
export async function startSandbox(
  options: ResolvedOptions,
): Promise<{ store: SandboxStore; server: RunningServer }> {
  const store = new SandboxStore(options.settings)
  const server = await startServer(store, sandboxRoutes(store), {
    host: options.host,
    port: options.port,
    allowedHosts: options.allowedHosts,
  })
  return { store, server }
}
