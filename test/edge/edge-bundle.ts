import { existsSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { EdgeRuntime } from 'edge-runtime'
import { build, type Plugin } from 'esbuild'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/**
 * The conditions of an edge bundle, as Next.js (`edge-light`), Cloudflare's workerd (`worker`) and
 * both bundlers' web defaults (`browser`) resolve them, in that order of preference; `import` and
 * `default` always match. A route handler of the App Router is bundled in the server-components layer
 * too (`react-server`).
 */
export const EDGE_CONDITIONS = ['edge-light', 'worker', 'browser'] as const
export const EDGE_ROUTE_CONDITIONS = ['react-server', ...EDGE_CONDITIONS] as const

type ExportsEntry = string | null | { [condition: string]: ExportsEntry }

/** The target of an `exports` entry for `conditions`, in the entry's own order (as Node and bundlers match them). */
function exportTarget(entry: ExportsEntry, conditions: readonly string[]): string | undefined {
  if (entry === null) return undefined
  if (typeof entry === 'string') return entry
  for (const [condition, value] of Object.entries(entry)) {
    if (condition !== 'default' && condition !== 'import' && !conditions.includes(condition)) continue
    const target = exportTarget(value, conditions)
    if (target !== undefined) return target
  }
  return undefined
}

/**
 * Resolves the workspace's `@verified-reviews/*` packages as a published copy would be resolved, by
 * the conditions of their `exports` (not the workspace's source condition, which every entry lists
 * first), then reads the source of the `dist` file chosen, so that the bundle is of the code as it
 * is now and needs no build.
 */
function publishedWorkspace(conditions: readonly string[]): Plugin {
  return {
    name: 'published-workspace',
    setup(bundle) {
      bundle.onResolve({ filter: /^@verified-reviews\/[^/]+/ }, ({ path }) => {
        const [, name, rest] = /^@verified-reviews\/([^/]+)(\/.*)?$/.exec(path) ?? []
        const directory = join(ROOT, 'packages', name ?? '')
        const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
          exports: Record<string, ExportsEntry>
        }
        const subpath = `.${rest ?? ''}`
        const entry = manifest.exports[subpath]
        if (entry === undefined) return { errors: [{ text: `${path} is not exported` }] }
        const target = exportTarget(entry, conditions)
        if (target === undefined) return { errors: [{ text: `${path} has no target for ${conditions}` }] }
        const source = target.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '')
        const file = ['.ts', '.tsx'].map((ext) => join(directory, source + ext)).find(existsSync)
        if (file === undefined) return { errors: [{ text: `${path} → ${target} has no source` }] }
        return { path: file }
      })
    },
  }
}

const NODE_MODULE = new RegExp(
  `^(?:node:)?(?:${builtinModules.map((name) => name.replace(/[/]/g, '\\/')).join('|')})(?:/.*)?$`,
)

/**
 * What Next.js does with a Node.js module imported into an edge bundle: the import stays, and any use
 * of the module throws (`The edge runtime does not support Node.js 'fs' module`), so that code that
 * imports one on a path the route never takes still runs.
 */
const nodeModulesUnsupported: Plugin = {
  name: 'node-modules-unsupported',
  setup(bundle) {
    bundle.onResolve({ filter: NODE_MODULE }, ({ path }) => ({ path, namespace: 'edge-unsupported' }))
    bundle.onLoad({ filter: /.*/, namespace: 'edge-unsupported' }, ({ path }) => ({
      contents: `const fail = () => { throw new Error("The edge runtime does not support Node.js '${path.replace(/^node:/, '')}' module") }
module.exports = new Proxy({}, { get: (_, key) => (key === '__esModule' ? undefined : fail()), apply: fail, construct: fail })`,
      loader: 'js',
    }))
  },
}

/**
 * What the server-components layer of the App Router does with a `'use client'` module: its exports
 * become client references, and what it imports (SWR, browser code) is left to the browser bundle.
 */
const clientReferences: Plugin = {
  name: 'client-references',
  setup(bundle) {
    bundle.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]src[\\/].*\.tsx?$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8')
      if (!/^\s*['"]use client['"]/.test(source)) return undefined
      const names = [...source.matchAll(/^export\s+(?:async\s+)?(?:function|const|let|class)\s+([\w$]+)/gm)]
      const contents = names
        .map(
          ([, name]) =>
            `export const ${name} = Object.assign(() => { throw new Error('${name} is a client component') }, { $$typeof: Symbol.for('react.client.reference'), $$id: '${name}' })`,
        )
        .join('\n')
      return { contents, loader: 'js' }
    })
  },
}

/** How {@link bundleForEdge} bundles. */
export interface EdgeBundleOptions {
  /** @default EDGE_CONDITIONS */
  conditions?: readonly string[]
  /**
   * `fail`: an import of a Node.js module fails the build (core must need none). `unsupported`: as
   * Next.js bundles an edge route, the import stays and any use of the module throws.
   * @default 'fail'
   */
  nodeModules?: 'fail' | 'unsupported'
  /** `'use client'` modules become client references, as in the App Router's server layer. @default false */
  serverComponents?: boolean
  /** Packages left out of the bundle, required at run time (as Next.js leaves out optional tracing). */
  external?: readonly string[]
}

/**
 * Bundles `entry` (module source; imports are resolved from test/edge) for an edge runtime: browser
 * platform, the edge conditions, no Node.js built-in. The bundle is a script that puts the entry's
 * exports on `globalThis.__entry`.
 */
export async function bundleForEdge(entry: string, options: EdgeBundleOptions = {}): Promise<string> {
  const {
    conditions = EDGE_CONDITIONS,
    nodeModules = 'fail',
    serverComponents = false,
    external = [],
  } = options
  const result = await build({
    stdin: { contents: entry, resolveDir: join(ROOT, 'test/edge'), loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    write: false,
    format: 'iife',
    globalName: '__entry',
    platform: 'browser',
    target: 'es2022',
    conditions: [...conditions],
    mainFields: ['browser', 'module', 'main'],
    plugins: [
      publishedWorkspace(conditions),
      ...(nodeModules === 'unsupported' ? [nodeModulesUnsupported] : []),
      ...(serverComponents ? [clientReferences] : []),
    ],
    external: [...external],
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  })
  return result.outputFiles[0]?.text ?? ''
}

/** The `process.env` an edge runtime gives code (Next.js's does; workerd's `nodejs_compat` too). */
export interface EdgeOptions {
  env?: Record<string, string>
}

/**
 * A fresh edge runtime (Vercel's `edge-runtime`: the Web APIs of the Edge Runtime and nothing of
 * Node.js: no `require`, no `Buffer`, no `node:` modules) with `bundle` evaluated in it.
 */
export function edgeRuntimeWith(bundle: string, options: EdgeOptions = {}): EdgeRuntime {
  const runtime = new EdgeRuntime({
    extend: (context) => {
      if (options.env !== undefined) Object.assign(context, { process: { env: { ...options.env } } })
      return context
    },
  })
  runtime.evaluate(bundle)
  return runtime
}

/**
 * Runs `body` (the source of an async function body, which sees the bundle's exports as `entry`) in
 * the runtime, and answers what it returns, through JSON so that no object of the runtime's realm
 * leaks out.
 */
export async function runInEdge<T>(runtime: EdgeRuntime, body: string): Promise<T> {
  const text = await runtime.evaluate<Promise<string>>(
    `(async (entry) => JSON.stringify((await (async () => { ${body} })()) ?? null))(globalThis.__entry)`,
  )
  return JSON.parse(text) as T
}
