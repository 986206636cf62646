import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { conditions: ['@verified-reviews/source'] },
  ssr: { resolve: { conditions: ['@verified-reviews/source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
