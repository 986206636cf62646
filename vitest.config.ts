import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { conditions: ['@verified-reviews/source'] },
  ssr: { resolve: { conditions: ['@verified-reviews/source'] } },
  test: {
    include: ['packages/*/src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Type tests of the public API: checked by tsc through Vitest, so they count as tests.
    typecheck: {
      enabled: true,
      include: ['packages/*/src/**/*.test-d.ts'],
      tsconfig: 'packages/core/tsconfig.json',
    },
  },
})
