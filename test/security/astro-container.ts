// Renders the Astro components of packages/astro with Astro's container API, outside `astro build`:
// a Vite server made from Astro's own Vite config compiles the `.astro` files, and
// `experimental_AstroContainer` renders them to HTML with the props a test gives.
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { sourceCondition } from '../fixtures/source-condition.ts'

/** An Astro component module, as the container takes it. */
type AstroComponent = unknown

interface Container {
  renderToString(component: AstroComponent, options: { props: Record<string, unknown> }): Promise<string>
}

interface ViteServer {
  ssrLoadModule(url: string): Promise<Record<string, unknown>>
  close(): Promise<void>
}

/** Renders the components of `@verified-reviews/astro/components` by name. */
export interface AstroRenderer {
  render(component: string, props: Record<string, unknown>): Promise<string>
  close(): Promise<void>
}

// `astro` is a dependency of packages/astro, not of test/: resolve it (and its own Vite) from there.
const ASTRO_PACKAGE = fileURLToPath(new URL('../../packages/astro/package.json', import.meta.url))
const ASTRO_ROOT = fileURLToPath(new URL('../../packages/astro/', import.meta.url))

async function importFrom(require: NodeJS.Require, specifier: string): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(require.resolve(specifier)).href)) as Record<string, unknown>
}

/** Starts the Vite server that compiles the components, and a container that renders them. */
export async function startAstroRenderer(): Promise<AstroRenderer> {
  const fromPackage = createRequire(ASTRO_PACKAGE)
  const fromAstro = createRequire(fromPackage.resolve('astro/package.json'))
  const { getViteConfig } = (await importFrom(fromPackage, 'astro/config')) as {
    getViteConfig(
      vite: Record<string, unknown>,
      astro: Record<string, unknown>,
    ): (env: { mode: string; command: string }) => Promise<Record<string, unknown>>
  }
  const { createServer } = (await importFrom(fromAstro, 'vite')) as {
    createServer(config: Record<string, unknown>): Promise<ViteServer>
  }
  const config = await getViteConfig(
    {
      root: ASTRO_ROOT,
      logLevel: 'error',
      appType: 'custom',
      server: { middlewareMode: true, hmr: false, ws: false, watch: null },
      plugins: [sourceCondition],
    },
    { root: ASTRO_ROOT, logLevel: 'error', devToolbar: { enabled: false } },
  )({ mode: 'production', command: 'serve' })
  const server = await createServer({ ...config, configFile: false })
  // The container from the same module graph as the components, so they share Astro's runtime.
  const { experimental_AstroContainer } = (await server.ssrLoadModule('astro/container')) as {
    experimental_AstroContainer: { create(): Promise<Container> }
  }
  const container = await experimental_AstroContainer.create()
  const components = new Map<string, AstroComponent>()
  return {
    async render(component, props) {
      let loaded = components.get(component)
      if (loaded === undefined) {
        loaded = (await server.ssrLoadModule(`/src/components/${component}.astro`)).default
        components.set(component, loaded)
      }
      return container.renderToString(loaded, { props })
    },
    close: () => server.close(),
  }
}
