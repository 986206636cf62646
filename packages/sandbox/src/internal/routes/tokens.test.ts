import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../index.ts'

let sb: Sandbox
beforeAll(async () => {
  sb = await createSandbox({ tokenTtl: 120 })
})
afterAll(() => sb.close())

const PUBLISHED = '/realms/skeepers/protocol/openid-connect/token'
const PURCHASE_EVENTS = '/am/oauth2/alpha/access_token'

function basic(id: string, secret: string): string {
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
