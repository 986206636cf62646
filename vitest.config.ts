import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { conditions: ['@verified-reviews/source'] },
  ssr: { resolve: { conditions: ['@verified-reviews/source'] } },
  test: {
    include: ['packages/*/src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
