import { AuthenticationError, InternalServerError } from '@verified-reviews/core'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../../../../test/fixtures/sandbox.ts'
import { keepingLogger } from '../../test/loader-context.ts'
import { buildWithoutReviewData, checkBuild, ReviewDataError, reviewDataFailed } from './build-check.ts'
import { type SharedState, startRun } from './shared.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

let log: ReturnType<typeof keepingLogger>

/** Starts a run of `command` against the sandbox, with `settings` over its defaults. */
function start(command: string, settings: Partial<SharedState> = {}): void {
  const { origin, clientId, clientSecret } = sb.sandbox
  startRun({
    clientOptions: { origin, clientId, clientSecret },
    command,
    storeDir: undefined,
    locale: undefined,
    logger: log.logger,
    ...settings,
  })
}

const refusal = () =>
  new AuthenticationError({
    status: 401,
    headers: new Headers(),
    body: { error: 'invalid_client' },
    url: 'http://127.0.0.1:4010/realms/skeepers/protocol/openid-connect/token',
    source: 'published-token',
  })

const outage = () =>
  new InternalServerError({
    status: 503,
    headers: new Headers(),
    body: { message: 'down for maintenance' },
    url: 'http://127.0.0.1:4010/verified-reviews/v1/published/products',
    source: 'published',
  })

beforeEach(() => {
  log = keepingLogger()
  // Only the run's own settings count: none of the shell's.
  for (const name of [
    'VERIFIED_REVIEWS_CLIENT_ID',
    'VERIFIED_REVIEWS_CLIENT_SECRET',
    'VERIFIED_REVIEWS_ORIGIN',
  ])
    vi.stubEnv(name, undefined)
})
afterEach(() => {
  vi.unstubAllEnvs()
})

describe('checkBuild at the start of astro build', () => {
  it('says once which origin accepted the credentials, with one token request', async () => {
    start('build')
    await checkBuild(log.logger)
    expect(log.lines.info).toEqual([
      `credentials accepted by ${sb.sandbox.origin}: the review data of the build is fetched once, for every page and worker`,
    ])
    expect((await sb.stats()).operations).toEqual({ 'token.published': 1 })
  })

  it('stops the build when the credentials are refused, naming the option that set the secret', async () => {
    start('build', {
      clientOptions: {
        origin: sb.sandbox.origin,
        clientId: sb.sandbox.clientId,
        clientSecret: 'not-the-secret',
      },
      settingNames: { clientSecret: 'the clientSecret option' },
    })
    const stop = checkBuild(log.logger)
    await expect(stop).rejects.toBeInstanceOf(ReviewDataError)
    await expect(stop).rejects.toThrow(/\) and the clientSecret option were refused: .*the build stops/)
    expect(buildWithoutReviewData()).toBe(false)
  })

  it('with failOnError off, says once that the pages are built without reviews, and the build goes on', async () => {
    start('build', {
      clientOptions: {
        origin: sb.sandbox.origin,
        clientId: sb.sandbox.clientId,
        clientSecret: 'not-the-secret',
      },
      failOnError: false,
    })
    await checkBuild(log.logger)
    expect(log.lines.warn).toEqual([
      expect.stringMatching(
        /were refused: .*: the pages are built without reviews, since failOnError is off\.$/,
      ),
    ])
    expect(buildWithoutReviewData()).toBe(true)
  })

  it('stops the build without credentials only with failOnError on', async () => {
    start('build', { clientOptions: { origin: sb.sandbox.origin }, failOnError: true })
    await expect(checkBuild(log.logger)).rejects.toThrow(
      'VERIFIED_REVIEWS_CLIENT_ID and VERIFIED_REVIEWS_CLIENT_SECRET are not set: the build stops, since failOnError is on.',
    )
  })
})

describe('reviewDataFailed during astro build', () => {
  it('says nothing more when the check at the start of the build said why', async () => {
    start('build', { clientOptions: { origin: sb.sandbox.origin } })
    await checkBuild(log.logger)
    reviewDataFailed('ProductReviews has no review data', refusal(), 'log')
    expect(log.lines.warn).toHaveLength(1)
    expect(log.lines.error).toEqual([])
  })

  it('stops the build for refused credentials', () => {
    start('build')
    expect(() => reviewDataFailed('ProductReviews has no review data', refusal(), 'log')).toThrow(
      ReviewDataError,
    )
  })

  it('tells a failed answer once, through the integration logger, and goes on', () => {
    start('build')
    reviewDataFailed('ProductReviews has no review data', outage(), 'log')
    reviewDataFailed('ProductReviews has no review data', outage(), 'log')
    expect(log.lines.error).toEqual([
      'ProductReviews has no review data: 503 from published: down for maintenance: the pages are built without ' +
        'reviews. Set failOnError (or VERIFIED_REVIEWS_FAIL_ON_ERROR=1) to fail the build instead.',
    ])
  })

  it('stops the build for a failed answer with failOnError on', () => {
    start('build', { failOnError: true })
    expect(() => reviewDataFailed('product reviews not synced', outage(), 'throw')).toThrow(
      /^product reviews not synced: 503 from published: down for maintenance: the build stops, since failOnError is on\.$/,
    )
  })
})

describe('reviewDataFailed outside a build', () => {
  it('rethrows a loader’s error as it was, for Astro to show', () => {
    start('dev')
    const error = refusal()
    expect(() => reviewDataFailed('product reviews not synced', error, 'throw')).toThrow(error)
  })

  it('tells a component’s failure once, without stopping anything', () => {
    start('dev')
    reviewDataFailed('ProductReviews has no review data', refusal(), 'log')
    reviewDataFailed('ProductReviews has no review data', refusal(), 'log')
    expect(log.lines.error).toEqual([
      `ProductReviews has no review data: VERIFIED_REVIEWS_CLIENT_ID (${sb.sandbox.clientId}) and ` +
        'VERIFIED_REVIEWS_CLIENT_SECRET were refused: the token endpoint ' +
        'http://127.0.0.1:4010/realms/skeepers/protocol/openid-connect/token answered 401 (invalid_client)',
    ])
  })
})
