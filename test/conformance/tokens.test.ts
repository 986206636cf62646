import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  admin,
  basicAuthorization,
  call,
  expectError,
  PUBLISHED,
  PUBLISHED_OPERATIONS,
  PUBLISHED_TOKEN_FORM,
  PUBLISHED_TOKEN_PATH,
  PURCHASE_EVENTS_TOKEN_FORM,
  PURCHASE_EVENTS_TOKEN_PATH,
  publishedToken,
  purchaseEventsPath,
  purchaseEventsToken,
  type Query,
  type Sandbox,
  startSandbox,
  tokenRequest,
  wait,
  withQuery,
} from './helpers.ts'

const INVALID_TOKEN = 'Bearer realm="verified-reviews", error="invalid_token"'

const ENDPOINTS = [
  { name: 'published', path: PUBLISHED_TOKEN_PATH, form: PUBLISHED_TOKEN_FORM },
  { name: 'purchase events', path: PURCHASE_EVENTS_TOKEN_PATH, form: PURCHASE_EVENTS_TOKEN_FORM },
]

let sb: Sandbox
let shortLived: Sandbox

beforeAll(async () => {
  sb = await startSandbox({
    clientId: 'conformance-client',
    clientSecret: 'conformance-secret',
    rateLimit: 0,
  })
  shortLived = await startSandbox({ tokenTtl: 1, rateLimit: 0 })
})

afterAll(async () => {
  await sb?.close()
  await shortLived?.close()
})

function getPublished(
  target: Sandbox,
  token: string | undefined,
  path = '/products',
  query: Query = {},
): ReturnType<typeof call> {
  const headers: Record<string, string> = { accept: 'application/ld+json' }
  if (token !== undefined) headers.authorization = `Bearer ${token}`
  return call(withQuery(`${target.origin}${PUBLISHED}${path}`, query), { headers })
}

function submitPurchaseEvents(target: Sandbox, token: string): ReturnType<typeof call> {
  return call(`${target.origin}${purchaseEventsPath(target.websiteId)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '[]',
  })
}

describe('token endpoints', () => {
  it('uses the credentials given to createSandbox', () => {
    expect(sb.clientId).toBe('conformance-client')
    expect(sb.clientSecret).toBe('conformance-secret')
  })

  it.each(ENDPOINTS)(
    'the $name endpoint issues a bearer token for Basic credentials',
    async ({ path, form }) => {
      const answer = await tokenRequest(sb, path, form)
      expect(answer.status, answer.text).toBe(200)
      expect(answer.headers.get('content-type')).toMatch(/json/)
      expect(answer.body).toMatchObject({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
      })
      expect(String(answer.body.access_token).length).toBeGreaterThan(0)
    },
  )

  it.each(ENDPOINTS)(
    'the $name endpoint answers tokens with Cache-Control: no-store',
    async ({ path, form }) => {
      const answer = await tokenRequest(sb, path, form)
      expect(answer.headers.get('cache-control')).toBe('no-store')
    },
  )

  it.each(ENDPOINTS)(
    'the $name endpoint reads a body without Content-Type as a form',
    async ({ path, form }) => {
      const answer = await call<Record<string, unknown>>(`${sb.origin}${path}`, {
        method: 'POST',
        headers: { authorization: basicAuthorization(sb.clientId, sb.clientSecret) },
        body: new TextEncoder().encode(new URLSearchParams(form).toString()),
      })
      expect(answer.status, answer.text).toBe(200)
      expect(answer.body.token_type).toBe('Bearer')
    },
  )

  it.each(ENDPOINTS)(
    'the $name endpoint refuses a JSON body with 400 invalid_request',
    async ({ path, form }) => {
      const answer = await call(`${sb.origin}${path}`, {
        method: 'POST',
        headers: {
          authorization: basicAuthorization(sb.clientId, sb.clientSecret),
          'content-type': 'application/json',
        },
        body: JSON.stringify(form),
      })
      expectError(answer, 400, 'invalid_request')
    },
  )

  it('issues a different token on every request', async () => {
    expect(await publishedToken(sb)).not.toBe(await publishedToken(sb))
  })

  it('announces the configured tokenTtl as expires_in', async () => {
    const answer = await tokenRequest(shortLived, PUBLISHED_TOKEN_PATH, PUBLISHED_TOKEN_FORM)
    expect(answer.body.expires_in).toBe(1)
  })

  it.each(ENDPOINTS)('the $name endpoint also accepts credentials as form fields', async ({ path, form }) => {
    const answer = await tokenRequest(
      sb,
      path,
      { ...form, client_id: sb.clientId, client_secret: sb.clientSecret },
      null,
    )
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.token_type).toBe('Bearer')
  })

  it.each(ENDPOINTS)(
    'the $name endpoint refuses a wrong secret with 401 invalid_client',
    async ({ path, form }) => {
      const answer = await tokenRequest(sb, path, form, basicAuthorization(sb.clientId, 'not-the-secret'))
      expectError(answer, 401, 'invalid_client')
      expect(answer.body.error_description).toEqual(expect.any(String))
    },
  )

  it.each(ENDPOINTS)(
    'the $name endpoint answers invalid_client with WWW-Authenticate: Basic',
    async ({ path, form }) => {
      const answer = await tokenRequest(sb, path, form, basicAuthorization(sb.clientId, 'not-the-secret'))
      expect(answer.headers.get('www-authenticate')).toBe('Basic realm="sandbox"')
    },
  )

  it.each(ENDPOINTS)('the $name endpoint checks credentials before grant_type', async ({ path, form }) => {
    const answer = await tokenRequest(
      sb,
      path,
      { ...form, grant_type: 'password' },
      basicAuthorization(sb.clientId, 'not-the-secret'),
    )
    expectError(answer, 401, 'invalid_client')
  })

  it.each(ENDPOINTS)(
    'the $name endpoint checks the body type before the credentials',
    async ({ path, form }) => {
      const answer = await call(`${sb.origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(form),
      })
      expectError(answer, 400, 'invalid_request')
    },
  )

  it('the published endpoint checks grant_type before audience', async () => {
    const answer = await tokenRequest(sb, PUBLISHED_TOKEN_PATH, {
      grant_type: 'password',
      audience: 'elsewhere',
    })
    expectError(answer, 400, 'unsupported_grant_type')
  })

  it.each(ENDPOINTS)('the $name endpoint refuses an unknown client id with 401', async ({ path, form }) => {
    const answer = await tokenRequest(sb, path, form, basicAuthorization('someone-else', sb.clientSecret))
    expectError(answer, 401, 'invalid_client')
  })

  it.each(ENDPOINTS)(
    'the $name endpoint refuses a request without credentials with 401',
    async ({ path, form }) => {
      const answer = await tokenRequest(sb, path, form, null)
      expectError(answer, 401, 'invalid_client')
    },
  )

  it.each(ENDPOINTS)(
    'the $name endpoint refuses a wrong grant_type with 400 unsupported_grant_type',
    async ({ path, form }) => {
      const answer = await tokenRequest(sb, path, { ...form, grant_type: 'password' })
      expectError(answer, 400, 'unsupported_grant_type')
    },
  )

  it.each(ENDPOINTS)(
    'the $name endpoint refuses a missing grant_type with 400 unsupported_grant_type',
    async ({ path, form }) => {
      const { grant_type: _omitted, ...rest } = form
      const answer = await tokenRequest(sb, path, rest)
      expectError(answer, 400, 'unsupported_grant_type')
    },
  )

  it('the published endpoint refuses a wrong audience with 400 invalid_request', async () => {
    const answer = await tokenRequest(sb, PUBLISHED_TOKEN_PATH, {
      ...PUBLISHED_TOKEN_FORM,
      audience: 'purchase-events',
    })
    expectError(answer, 400, 'invalid_request')
  })

  it('the purchase events endpoint accepts openid among other scopes', async () => {
    const answer = await tokenRequest(sb, PURCHASE_EVENTS_TOKEN_PATH, {
      ...PURCHASE_EVENTS_TOKEN_FORM,
      scope: 'profile openid',
    })
    expect(answer.status, answer.text).toBe(200)
  })

  it('the purchase events endpoint refuses a missing scope with 400 invalid_request', async () => {
    const { scope: _omitted, ...rest } = PURCHASE_EVENTS_TOKEN_FORM
    expectError(await tokenRequest(sb, PURCHASE_EVENTS_TOKEN_PATH, rest), 400, 'invalid_request')
  })

  it('the published endpoint refuses a missing audience with 400 invalid_request', async () => {
    const { audience: _omitted, ...rest } = PUBLISHED_TOKEN_FORM
    expectError(await tokenRequest(sb, PUBLISHED_TOKEN_PATH, rest), 400, 'invalid_request')
  })

  it('the purchase events endpoint refuses a wrong scope with 400 invalid_request', async () => {
    const answer = await tokenRequest(sb, PURCHASE_EVENTS_TOKEN_PATH, {
      ...PURCHASE_EVENTS_TOKEN_FORM,
      scope: 'email',
    })
    expectError(answer, 400, 'invalid_request')
  })
})

describe('token audiences', () => {
  it('a published token opens the Published API', async () => {
    const answer = await getPublished(sb, await publishedToken(sb))
    expect(answer.status, answer.text).toBe(200)
  })

  it('a purchase events token gets 401 on the Published API', async () => {
    const answer = await getPublished(sb, await purchaseEventsToken(sb))
    expectError(answer, 401, 'unauthorized')
    expect(answer.headers.get('www-authenticate')).toBe(INVALID_TOKEN)
  })

  it('a published token gets 401 on the purchase events API', async () => {
    const answer = await submitPurchaseEvents(sb, await publishedToken(sb))
    expectError(answer, 401, 'unauthorized')
  })
})

describe('token expiry', () => {
  it('a token gets 401 once tokenTtl seconds have passed', async () => {
    const token = await publishedToken(shortLived)
    expect((await getPublished(shortLived, token)).status).toBe(200)
    await wait(1200)
    const answer = await getPublished(shortLived, token)
    expectError(answer, 401, 'unauthorized')
    expect(answer.headers.get('www-authenticate')).toBe(INVALID_TOKEN)
  })

  it('POST /__sandbox/tokens/expire makes every live token get 401', async () => {
    const published = await publishedToken(sb)
    const purchase = await purchaseEventsToken(sb)
    const expired = await admin(sb, 'POST', 'tokens/expire')
    expect(expired.status, expired.text).toBeLessThan(300)
    expectError(await getPublished(sb, published), 401, 'unauthorized')
    expectError(await submitPurchaseEvents(sb, purchase), 401, 'unauthorized')
  })

  it('a token issued after POST /__sandbox/tokens/expire works', async () => {
    await admin(sb, 'POST', 'tokens/expire')
    const answer = await getPublished(sb, await publishedToken(sb))
    expect(answer.status, answer.text).toBe(200)
  })
})

describe('Published API authentication', () => {
  it.each(PUBLISHED_OPERATIONS)(
    'GET $path without a token is 401 JSON with WWW-Authenticate',
    async ({ path, query }) => {
      const answer = await getPublished(sb, undefined, path, query)
      expectError(answer, 401, 'unauthorized')
      expect(answer.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/)
    },
  )

  it.each(PUBLISHED_OPERATIONS)(
    'GET $path with an unknown token is 401 JSON with WWW-Authenticate',
    async ({ path, query }) => {
      const answer = await getPublished(sb, 'not-a-token', path, query)
      expectError(answer, 401, 'unauthorized')
      expect(answer.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/)
    },
  )

  it('authentication comes before parameter checks', async () => {
    expectError(await getPublished(sb, undefined, '/products?limit=0'), 401, 'unauthorized')
  })

  it('Basic credentials instead of a bearer token get 401', async () => {
    const answer = await call(`${sb.origin}${PUBLISHED}/products`, {
      headers: { authorization: basicAuthorization(sb.clientId, sb.clientSecret) },
    })
    expectError(answer, 401, 'unauthorized')
    expect(answer.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/)
  })
})
