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
    {
      name: 'migrate-through-core-entries',
      severity: 'error',
      comment:
        '@verified-reviews/migrate reaches core through its entries only (`.` and `./internal`), never ' +
        'its files; core never imports migrate (issue 31).',
      from: { path: '^packages/migrate/src/' },
      to: { path: '^packages/core/src/', pathNot: '^packages/core/src/(index|siblings)[.]ts$' },
    },
    {
      name: 'core-not-on-migrate',
      severity: 'error',
      comment: 'Core does not depend on the migration package: the migration depends on core.',
      from: { path: '^packages/core/' },
      to: { path: '^packages/migrate/' },
    },
    {
      name: 'next-internals-in-one-module',
      severity: 'error',
      comment:
        'A module of Next.js it does not publish (next/dist/…) is imported by one module, ' +
        'packages/next/src/internal/next-internals.ts, which checks it and whose test fails on a Next.js ' +
        'that changes it; other packages reach it through @verified-reviews/next (issue 31). ' +
        'Tests may import one to check this package against Next.js’s own code.',
      from: {
        path: '^packages/[^/]+/src/',
        pathNot: ['^packages/next/src/internal/next-internals\\.ts$', '\\.test\\.tsx?$'],
      },
      to: { path: 'node_modules/next/dist/' },
    },
  ],
  options: {
    // Every package's src, tests included (a test imports what it tests, nothing imports a test).
    // `.astro` files are not read: dependency-cruiser has no parser for them.
    // Next.js's unpublished modules are kept too, for the rule on them.
    includeOnly: ['^packages/[^/]+/src/', 'node_modules/next/dist/'],
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
