// Import rules for the packages' sources, checked by `pnpm lint:deps` (part of `pnpm check`, so of CI).
import { CORE_LAYERS } from './scripts/core-layers.mjs'

/** A regular expression matching the paths that start with one of `prefixes`. */
const startsWith = (prefixes) =>
  `^(?:${prefixes.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`

/** Tests sit in their subject's layer but may import from any layer: nothing imports a test. */
const TEST = '\\.test(-d)?\\.tsx?$'

/**
 * One rule per layer of core (scripts/core-layers.mjs, bottom first): its files import nothing of the
 * layers above it, type-only imports included. scripts/check-core-layers.mjs, also run by
 * `pnpm lint:deps`, checks that every file of core belongs to exactly one layer.
 */
const coreLayerRules = CORE_LAYERS.slice(0, -1).map((layer, index) => ({
  name: 'core-layers',
  severity: 'error',
  comment:
    `Core's ${layer.name} layer imports only from itself and the layers below it ` +
    `(${
      CORE_LAYERS.slice(0, index)
        .map((below) => below.name)
        .join(', ') || 'none'
    }), types included: ` +
    'the order is scripts/core-layers.mjs.',
  from: { path: startsWith(layer.paths), pathNot: TEST },
  to: { path: startsWith(CORE_LAYERS.slice(index + 1).flatMap((above) => above.paths)) },
}))

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...coreLayerRules,
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A module must not reach itself through its imports, type-only imports included: ' +
        'types that several layers share live below them (issue 21).',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
  ],
  options: {
    // Every package's src, tests included (a test imports what it tests, nothing imports a test).
    // `.astro` files are not read: dependency-cruiser has no parser for them.
    includeOnly: '^packages/[^/]+/src/',
    // `import type` and `export type … from` count: a circle of types is still a circle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    // Packages import each other through their `exports` under the source condition, as Vitest and tsc
    // do here, so a circle that runs through two packages is found too.
    enhancedResolveOptions: {
      conditionNames: ['@verified-reviews/source', 'import', 'types', 'node', 'default'],
      exportsFields: ['exports'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      mainFields: ['types', 'module', 'main'],
    },
    doNotFollow: { path: 'node_modules' },
  },
}
