import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { freePort } from '../../../../../test/fixtures/free-port.ts'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import { ValidationError } from '../base/errors.ts'
import {
  type BuildProblem,
  buildProblemOf,
  buildStops,
  checkBuildCredentials,
  describeBuildProblem,
} from './build-problem.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
const TOKEN_PATH = '/realms/skeepers/protocol/openid-connect/token'

beforeEach(() => {
  for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
})
afterEach(() => {
  vi.unstubAllEnvs()
})

/** The problem the check found; fails the test when it found none. */
async function problemOfCheck(...args: Parameters<typeof checkBuildCredentials>): Promise<BuildProblem> {
  const check = await checkBuildCredentials(...args)
  if (check.ok) throw new Error(`the check found no problem: ${check.line}`)
  return check.problem
}

describe('checkBuildCredentials', () => {
  it('says which origin accepted the credentials, with one token request and no API call', async () => {
    expect(await checkBuildCredentials()).toEqual({
      ok: true,
      line: `credentials accepted by ${sb.sandbox.origin}: the review data of the build is fetched once, for every page and worker`,
    })
    expect((await sb.stats()).operations).toEqual({ 'token.published': 1 })
  })

  it('names every missing variable, and makes no request', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', '')
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', ' ')
    expect(await problemOfCheck()).toEqual({
      kind: 'missing',
      message: 'VERIFIED_REVIEWS_CLIENT_ID and VERIFIED_REVIEWS_CLIENT_SECRET are not set',
    })
    expect((await sb.stats()).operations).toEqual({})
  })

  it('names the variables of refused credentials, the client id and the token endpoint that refused them', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', 'not-the-secret')
    expect(await problemOfCheck()).toEqual({
      kind: 'refused',
      message:
        `VERIFIED_REVIEWS_CLIENT_ID (${sb.sandbox.clientId}) and VERIFIED_REVIEWS_CLIENT_SECRET were refused: ` +
        `the token endpoint ${sb.sandbox.origin}${TOKEN_PATH} answered 401 (invalid_client: unknown client or wrong secret)`,
    })
  })

  it('counts a 403 of the token endpoint as refused credentials', async () => {
    await sb.faults([{ operation: 'token.published', status: 403 }])
    expect((await problemOfCheck()).kind).toBe('refused')
  })

  it('names an address that cannot be reached, and the variable that set it', async () => {
    const origin = `http://127.0.0.1:${await freePort()}`
    vi.stubEnv('VERIFIED_REVIEWS_ORIGIN', origin)
    expect(await problemOfCheck()).toEqual({
      kind: 'unreachable',
      message: `${origin} (set in VERIFIED_REVIEWS_ORIGIN) cannot be reached: ECONNREFUSED for ${origin}${TOKEN_PATH}`,
    })
  })

  it('counts an error answer of the token endpoint as a failure, not as refused credentials', async () => {
    await sb.faults([{ operation: 'token.published', status: 503 }])
    expect((await problemOfCheck()).kind).toBe('failed')
  })

  it('names the settings as the caller says where they came from', async () => {
    const problem = await problemOfCheck({
      client: { clientSecret: 'not-the-secret' },
      names: { clientSecret: 'the clientSecret option' },
    })
    expect(problem.message).toMatch(
      /^VERIFIED_REVIEWS_CLIENT_ID \(.+\) and the clientSecret option were refused: /,
    )
  })

  it('says whether the build stops, and the line of its log', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', 'not-the-secret')
    const check = await checkBuildCredentials({}, undefined)
    expect(check).toMatchObject({ ok: false, stops: true })
    expect(check.line).toMatch(/were refused: .*: the build stops, since its pages would have no reviews\./)
    expect(await checkBuildCredentials({}, false)).toMatchObject({ ok: false, stops: false })
  })
})

describe('buildProblemOf', () => {
  it('takes an option out of range for what it is, not for missing credentials', () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', '')
    const error = new ValidationError([{ field: 'batchSize', message: 'must be an integer from 1 to 50' }])
    expect(buildProblemOf(error)).toEqual({
      kind: 'failed',
      message: 'batchSize: must be an integer from 1 to 50',
    })
  })
})

describe('buildStops', () => {
  const problems = (['missing', 'refused', 'unreachable', 'failed'] as const).map((kind) => ({
    kind,
    message: kind,
  }))

  it('stops by default for refused credentials and an API out of reach, and only for them', () => {
    expect(problems.filter((problem) => buildStops(problem, undefined)).map(({ kind }) => kind)).toEqual([
      'refused',
      'unreachable',
    ])
  })

  it('stops for every problem with failOnError on, and for none with failOnError off', () => {
    expect(problems.map((problem) => buildStops(problem, true))).toEqual([true, true, true, true])
    expect(problems.map((problem) => buildStops(problem, false))).toEqual([false, false, false, false])
  })
})

describe('describeBuildProblem', () => {
  const missing: BuildProblem = { kind: 'missing', message: 'VERIFIED_REVIEWS_CLIENT_ID is not set' }
  const refused: BuildProblem = { kind: 'refused', message: 'VERIFIED_REVIEWS_CLIENT_SECRET was refused' }

  it('tells a build that goes on without reviews how to fail it instead', () => {
    expect(describeBuildProblem(missing, undefined)).toBe(
      'VERIFIED_REVIEWS_CLIENT_ID is not set: the pages are built without reviews. Set failOnError ' +
        '(or VERIFIED_REVIEWS_FAIL_ON_ERROR=1) to fail the build instead.',
    )
  })

  it('tells a build that stops by default how to build without reviews instead', () => {
    expect(describeBuildProblem(refused, undefined)).toBe(
      'VERIFIED_REVIEWS_CLIENT_SECRET was refused: the build stops, since its pages would have no reviews. ' +
        'Fix this, or set failOnError to false (or VERIFIED_REVIEWS_FAIL_ON_ERROR=0) to build them without reviews.',
    )
  })

  it('names failOnError as the reason when it decided', () => {
    expect(describeBuildProblem(missing, true)).toBe(
      'VERIFIED_REVIEWS_CLIENT_ID is not set: the build stops, since failOnError is on.',
    )
    expect(describeBuildProblem(refused, false)).toBe(
      'VERIFIED_REVIEWS_CLIENT_SECRET was refused: the pages are built without reviews, since failOnError is off.',
    )
  })
})
