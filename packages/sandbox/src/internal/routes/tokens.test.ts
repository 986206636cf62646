import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../index.ts'

let sb: Sandbox
beforeAll(async () => {
  sb = await createSandbox({ tokenTtl: 120 })
})
afterAll(() => sb.close())

const PUBLISHED = '/realms/skeepers/protocol/openid-connect/token'
const PURCHASE_EVENTS = '/am/oauth2/alpha/access_token'

/** `Basic` credentials as RFC 6749 §2.3.1 builds them: id and secret form-encoded, then joined. */
function basic(id: string, secret: string): string {
  const form = (value: string) => new URLSearchParams({ v: value }).toString().slice(2)
  return `Basic ${Buffer.from(`${form(id)}:${form(secret)}`).toString('base64')}`
}

/** `Basic` credentials joined as they are, without the form encoding. */
function rawBasic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`
}

function post(path: string, form: Record<string, string>, authorization?: string) {
  return fetch(`${sb.origin}${path}`, {
    method: 'POST',
    headers: authorization ? { Authorization: authorization } : {},
    body: new URLSearchParams(form),
  })
}

const published = { grant_type: 'client_credentials', audience: 'verified-reviews' }

describe('token endpoints', () => {
  it('issue a bearer token for the Published API with Basic credentials', async () => {
    const res = await post(PUBLISHED, published, basic(sb.clientId, sb.clientSecret))
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 120 })
    expect(body.access_token).toEqual(expect.any(String))
  })

  it('accept the credentials as form fields too', async () => {
    const res = await post(PUBLISHED, {
      ...published,
      client_id: sb.clientId,
      client_secret: sb.clientSecret,
    })
    expect(res.status).toBe(200)
  })

  it('issue a purchase events token for scope openid', async () => {
    const res = await post(
      PURCHASE_EVENTS,
      { grant_type: 'client_credentials', scope: 'openid' },
      basic(sb.clientId, sb.clientSecret),
    )
    expect(res.status).toBe(200)
  })

  it('answer wrong credentials with 401 invalid_client', async () => {
    const res = await post(PUBLISHED, published, basic(sb.clientId, 'wrong'))
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({
      status: 401,
      error: 'invalid_client',
      error_description: expect.any(String),
    })
  })

  it('answer a missing grant_type with 400 unsupported_grant_type', async () => {
    const res = await post(PUBLISHED, { audience: 'verified-reviews' }, basic(sb.clientId, sb.clientSecret))
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'unsupported_grant_type' })
  })

  it('answer a wrong audience with 400 invalid_request', async () => {
    const res = await post(
      PUBLISHED,
      { ...published, audience: 'other' },
      basic(sb.clientId, sb.clientSecret),
    )
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'invalid_request' })
  })

  it('answer a wrong scope with 400 invalid_request', async () => {
    const res = await post(
      PURCHASE_EVENTS,
      { grant_type: 'client_credentials', scope: 'email' },
      basic(sb.clientId, sb.clientSecret),
    )
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'invalid_request' })
  })
})

describe('token endpoints, with credentials that need form encoding', () => {
  const clientId = 'shop:1 é'
  const clientSecret = 'p+ss%20 w:rd-é€'
  let special: Sandbox
  beforeAll(async () => {
    special = await createSandbox({ clientId, clientSecret })
  })
  afterAll(() => special.close())

  const postTo = (authorization: string) =>
    fetch(`${special.origin}${PUBLISHED}`, {
      method: 'POST',
      headers: { Authorization: authorization },
      body: new URLSearchParams(published),
    })

  it('issue a token for an id and secret form-encoded before base64, as RFC 6749 §2.3.1 says', async () => {
    const res = await postTo(basic(clientId, clientSecret))
    expect(res.status).toBe(200)
  })

  it('answer 401 to the same id and secret sent without their form encoding', async () => {
    const res = await postTo(rawBasic(clientId, clientSecret))
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ error: 'invalid_client' })
  })
})

describe('token endpoints, with a secret whose percent sign is not an escape', () => {
  let percent: Sandbox
  beforeAll(async () => {
    percent = await createSandbox({ clientSecret: '100%' })
  })
  afterAll(() => percent.close())

  it('answer 401 to the secret sent without its form encoding, rather than reading it as it is', async () => {
    const res = await fetch(`${percent.origin}${PUBLISHED}`, {
      method: 'POST',
      headers: { Authorization: rawBasic(percent.clientId, '100%') },
      body: new URLSearchParams(published),
    })
    expect(res.status).toBe(401)
  })
})
