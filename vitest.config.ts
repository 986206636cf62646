import { configDefaults, defineConfig } from 'vitest/config'

// Three projects, by what a test needs (issue 21); `pnpm test` runs them all, `pnpm test:unit` (under a
// minute on 2 cores) only the first, with a worker per core (`--maxWorkers=100%`: Vitest's default
// leaves one core out, which on 2 cores runs the files one at a time).
//   unit     no server process, no sandbox over HTTP, no redis-server, no framework build, no browser
//            (a node:http stub the test itself listens with is fine)
//   sandbox  talks HTTP to the sandbox (`*.sandbox.test.*`, test/conformance, most of test/) or to a
//            real redis-server (packages/redis, test/redis)
//   e2e      framework builds (`next build`, `astro build`), Chromium, packing

/** Framework builds, Chromium and packing. */
const E2E = [
  'test/e2e/**/*.test.ts', // next build / astro build of the demos, Chromium
  'test/packaging/tarballs.test.ts', // packs every package
  'test/security/hostile-render.test.ts', // Chromium
  'packages/astro/src/{build,build-check,components}.test.ts', // astro build of the fixtures
]

/** Files beside the sources that start a sandbox or a redis-server without the `.sandbox.test` suffix. */
const SANDBOX_BESIDE_SOURCES = [
  '**/*.sandbox.test.{ts,tsx}',
  'packages/redis/src/**/*.test.ts', // every one starts a redis-server
  'packages/next/src/seed-from-build.test.ts', // redis-server
  'packages/astro/src/{integration,live-loader}.test.ts',
  'packages/astro/src/internal/build-check.test.ts',
  'packages/astro/src/components/internal/data.test.ts',
  'packages/next/src/clients.test.ts',
  'packages/react/src/components/{BrandReviews,ProductRating,ProductReviews,ReviewsJsonLd}.test.tsx',
  'packages/inject/src/command.test.ts',
  'packages/sandbox/src/{index,cli}.test.ts', // cli.test.ts spawns the sandbox command
  'packages/sandbox/src/internal/server.test.ts',
  'packages/sandbox/src/internal/routes/{admin,published,tokens}.test.ts',
]

/** Files under test/ (sandbox by default) that need none of it. */
const UNIT_UNDER_TEST = [
  'test/core/{client-options,connection-errors,jsonld-google-rules,limits}.test.ts',
  'test/examples/*.test.ts',
  'test/quickstart/*.test.ts',
  'test/packaging/{engines,release}.test.ts',
  'test/security/injector-corpus.test.ts',
]

export default defineConfig({
  resolve: { conditions: ['@verified-reviews/source'] },
  ssr: { resolve: { conditions: ['@verified-reviews/source'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.{ts,tsx}', ...UNIT_UNDER_TEST],
          exclude: [...configDefaults.exclude, ...E2E, ...SANDBOX_BESIDE_SOURCES],
          // Type tests of the public API: checked by tsc through Vitest, so they count as tests.
          typecheck: {
            enabled: true,
            include: ['packages/*/src/**/*.test-d.ts'],
            tsconfig: 'packages/core/tsconfig.json',
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'sandbox',
          include: ['test/**/*.test.{ts,tsx}', ...SANDBOX_BESIDE_SOURCES],
          exclude: [...configDefaults.exclude, ...E2E, ...UNIT_UNDER_TEST],
        },
      },
      {
        extends: true,
        test: { name: 'e2e', include: E2E },
      },
    ],
  },
})
