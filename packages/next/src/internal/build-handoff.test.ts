import { execFileSync } from 'node:child_process'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  BUILD_REPLICA_VARIABLE,
  handedBuildCheck,
  handedBuildOptions,
  handedReplicaModule,
  handToBuildWorkers,
} from './build-handoff.ts'

const VARIABLES = [
  'VERIFIED_REVIEWS_FAIL_ON_ERROR',
  'VERIFIED_REVIEWS_BUILD_BRAND_REVIEWS',
  'VERIFIED_REVIEWS_BUILD_PRODUCTS',
  'VERIFIED_REVIEWS_DIST_DIR',
  '__VERIFIED_REVIEWS_BUILD_CHECK',
  BUILD_REPLICA_VARIABLE,
]

beforeEach(() => {
  // Unset while each test runs, and put back as they were after it.
  for (const name of VARIABLES) vi.stubEnv(name, undefined)
})
afterEach(() => {
  vi.unstubAllEnvs()
})

describe('the build hand-off', () => {
  it('reads back what the config handed, by the core rules', () => {
    handToBuildWorkers({
      failOnError: false,
      buildBrandReviews: true,
      buildProducts: '/tmp/products.json',
      distDir: '.next-e2e',
      buildCheck: 'ok',
    })
    expect(handedBuildOptions()).toEqual({
      failOnError: false,
      buildBrandReviews: true,
      buildProducts: '/tmp/products.json',
      distDir: '.next-e2e',
    })
    expect(handedBuildCheck()).toBe('ok')
  })

  it('leaves what it is not handed as the site set it', () => {
    vi.stubEnv('VERIFIED_REVIEWS_FAIL_ON_ERROR', 'yes')
    handToBuildWorkers({ distDir: 'out' })
    expect(handedBuildOptions()).toMatchObject({ failOnError: true, distDir: 'out' })
    expect(handedBuildCheck()).toBeUndefined()
  })

  it('reaches a process started after it, which inherits only the environment', () => {
    handToBuildWorkers({ failOnError: true, distDir: 'dist-next', buildCheck: 'no credentials' })
    const seen = execFileSync(
      process.execPath,
      [
        '-e',
        'const e = process.env; console.log(JSON.stringify([e.VERIFIED_REVIEWS_FAIL_ON_ERROR, e.VERIFIED_REVIEWS_DIST_DIR, e.__VERIFIED_REVIEWS_BUILD_CHECK]))',
      ],
      { encoding: 'utf8' },
    )
    expect(JSON.parse(seen)).toEqual(['1', 'dist-next', 'no credentials'])
  })

  it('names the replica module that withRedisCache sets, and none for an empty variable', () => {
    expect(handedReplicaModule()).toBeUndefined()
    vi.stubEnv(BUILD_REPLICA_VARIABLE, '')
    expect(handedReplicaModule()).toBeUndefined()
    vi.stubEnv(BUILD_REPLICA_VARIABLE, '/app/node_modules/@verified-reviews/redis/dist/next-build-replica.js')
    expect(handedReplicaModule()).toBe('/app/node_modules/@verified-reviews/redis/dist/next-build-replica.js')
  })
})
