// Import rules for the packages' sources, checked by `pnpm lint:deps` (part of `pnpm check`, so of CI).
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
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
