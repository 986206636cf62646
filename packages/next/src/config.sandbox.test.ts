import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { freePort } from '../../../test/fixtures/free-port.ts'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
import { withVerifiedReviews } from './config.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
const BUILD = 'phase-production-build'
// Next.js passes its default config; these configs never read it.
const context = { defaultConfig: {} } as never

let log: ReturnType<typeof vi.spyOn>
let warn: ReturnType<typeof vi.spyOn>

beforeEach(() => {
  for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
  // Each test is a new `next build`: no check has run in this process tree yet.
  vi.stubEnv('__VERIFIED_REVIEWS_BUILD_CHECK', undefined)
  vi.stubEnv('VERIFIED_REVIEWS_FAIL_ON_ERROR', undefined)
  log = vi.spyOn(console, 'log').mockImplementation(() => {})
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

describe('withVerifiedReviews at the start of next build', () => {
  it('says once that the credentials were accepted, with one token request and no API call', async () => {
    const config = withVerifiedReviews({ cacheComponents: true })
    expect(await config(BUILD, context)).toEqual({
      cacheComponents: true,
      cacheHandler: FAIL_SAFE_CACHE,
      cacheHandlers: FAIL_SAFE_USE_CACHE,
    })
    await config(BUILD, context)
    expect(log).toHaveBeenCalledTimes(1)
    expect(String(log.mock.calls[0]?.[0])).toContain(`credentials accepted by ${sb.sandbox.origin}`)
    expect((await sb.stats()).operations).toEqual({ 'token.published': 1 })
  })

  it('says once which variable is missing, and that the pages will have no reviews', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', '')
    await withVerifiedReviews({})(BUILD, context)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /VERIFIED_REVIEWS_CLIENT_SECRET is not set: the pages are built without reviews/,
    )
  })

  it('stops the build when the token endpoint refuses the credentials, naming their variables', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', 'not-the-secret')
    await expect(withVerifiedReviews({})(BUILD, context)).rejects.toThrow(
      `[@verified-reviews/next] VERIFIED_REVIEWS_CLIENT_ID (${sb.sandbox.clientId}) and VERIFIED_REVIEWS_CLIENT_SECRET were refused: the token endpoint ${sb.sandbox.origin}/realms/skeepers/protocol/openid-connect/token answered 401`,
    )
    expect(warn).not.toHaveBeenCalled()
  })

  it('stops the build when the API cannot be reached, naming the address', async () => {
    const origin = `http://127.0.0.1:${await freePort()}`
    vi.stubEnv('VERIFIED_REVIEWS_ORIGIN', origin)
    await expect(withVerifiedReviews({})(BUILD, context)).rejects.toThrow(
      `[@verified-reviews/next] ${origin} (set in VERIFIED_REVIEWS_ORIGIN) cannot be reached: ECONNREFUSED`,
    )
  })

  it('builds without reviews, saying so once, when the credentials are refused and failOnError is off', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', 'not-the-secret')
    await withVerifiedReviews({}, { failOnError: false })(BUILD, context)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /were refused: .*: the pages are built without reviews, since failOnError is off\.$/,
    )
    expect(process.env.__VERIFIED_REVIEWS_BUILD_CHECK).toMatch(/were refused/)
  })

  it('stops the build without credentials with failOnError, naming the variable', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', '')
    await expect(withVerifiedReviews({}, { failOnError: true })(BUILD, context)).rejects.toThrow(
      /VERIFIED_REVIEWS_CLIENT_ID is not set: the build stops, since failOnError is on/,
    )
  })

  it('hands failOnError to the build workers through the environment', async () => {
    await withVerifiedReviews({}, { failOnError: true })(BUILD, context)
    expect(process.env.VERIFIED_REVIEWS_FAIL_ON_ERROR).toBe('1')
    await withVerifiedReviews({}, { failOnError: false })(BUILD, context)
    expect(process.env.VERIFIED_REVIEWS_FAIL_ON_ERROR).toBe('0')
  })

  it('checks nothing outside next build, and passes the phase to a config function', async () => {
    const config = withVerifiedReviews((phase) => ({ env: { phase } }))
    expect(await config('phase-development-server', context)).toEqual({
      env: { phase: 'phase-development-server' },
      cacheHandler: FAIL_SAFE_CACHE,
      cacheHandlers: FAIL_SAFE_USE_CACHE,
    })
    expect((await sb.stats()).operations).toEqual({})
    expect(log).not.toHaveBeenCalled()
  })

  it('keeps a cacheHandler of the config, which it leaves to the app to wrap', async () => {
    const config = withVerifiedReviews({ cacheHandler: '/app/cache-handlers/next-cache.mjs' })
    expect(await config('phase-production-server', context)).toEqual({
      cacheHandler: '/app/cache-handlers/next-cache.mjs',
      cacheHandlers: FAIL_SAFE_USE_CACHE,
    })
  })
})

/** The incremental cache withVerifiedReviews installs: Next.js's own, kept from failed renders. */
const FAIL_SAFE_CACHE = expect.stringMatching(/\/cache-handlers\/incremental-cache\.(ts|js)$/)

/** The 'use cache' handler withVerifiedReviews installs for both kinds: Next.js's in-memory one, kept from failed renders. */
const useCachePath = expect.stringMatching(/\/cache-handlers\/use-cache\.(ts|js)$/)
const FAIL_SAFE_USE_CACHE = { default: useCachePath, remote: useCachePath }
