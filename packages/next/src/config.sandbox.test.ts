import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
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
    expect(await config(BUILD, context)).toEqual({ cacheComponents: true })
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

  it('says that the token endpoint refused the credentials', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', 'not-the-secret')
    await withVerifiedReviews({})(BUILD, context)
    expect(String(warn.mock.calls[0]?.[0])).toContain(
      `the token endpoint refused the credentials of client ${sb.sandbox.clientId}`,
    )
  })

  it('stops the build with failOnError, naming the problem', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', '')
    await expect(withVerifiedReviews({}, { failOnError: true })(BUILD, context)).rejects.toThrow(
      /VERIFIED_REVIEWS_CLIENT_ID is not set: the build stops, since failOnError is on/,
    )
  })

  it('hands failOnError to the build workers through the environment', async () => {
    await withVerifiedReviews({}, { failOnError: true })(BUILD, context)
    expect(process.env.VERIFIED_REVIEWS_FAIL_ON_ERROR).toBe('1')
  })

  it('checks nothing outside next build, and passes the phase to a config function', async () => {
    const config = withVerifiedReviews((phase) => ({ env: { phase } }))
    expect(await config('phase-development-server', context)).toEqual({
      env: { phase: 'phase-development-server' },
    })
    expect((await sb.stats()).operations).toEqual({})
    expect(log).not.toHaveBeenCalled()
  })
})
