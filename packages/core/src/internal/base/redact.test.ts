import { afterEach, describe, expect, it } from 'vitest'
import {
  forgetSecrets,
  isSecretName,
  REDACTED,
  redactBody,
  redactCause,
  redactHeaders,
  redactText,
  redactUrl,
  rememberSecret,
} from './redact.ts'

afterEach(() => {
  forgetSecrets()
})

describe('isSecretName', () => {
  it.each([
    'token',
    'access_token',
    'refresh_token',
    'id_token',
    'client_secret',
    'clientSecret',
    'genesisSecret',
    'signature',
    'X-Amz-Signature',
    'sig',
    'password',
    'api_key',
    'apiKey',
    'x-api-key',
    'Authorization',
    'proxy-authorization',
    'cookie',
    'set-cookie',
  ])('counts %s as a credential', (name) => {
    expect(isSecretName(name)).toBe(true)
  })

  it.each(['idWebsite', 'cursor', 'shop_key', 'limit', 'product_variation_id', 'client_id', 'content-type'])(
    'leaves %s alone',
    (name) => {
      expect(isSecretName(name)).toBe(false)
    },
  )
})

describe('redactUrl', () => {
  it('redacts the Genesis token and keeps the other parameters', () => {
    expect(redactUrl('https://api.test/genesis/website?idWebsite=w-1&token=abc123def456&range=5')).toBe(
      `https://api.test/genesis/website?idWebsite=w-1&token=${REDACTED}&range=5`,
    )
  })

  it('redacts signatures, access tokens and client secrets in any position', () => {
    const url = redactUrl(
      'https://x.test/a?access_token=AT1234567&X-Amz-Signature=deadbeef&client_secret=s3cr3t#sig=frag',
    )
    expect(url).not.toMatch(/AT1234567|deadbeef|s3cr3t|frag/)
    expect(url).toContain('https://x.test/a?access_token=')
  })

  it('redacts user info', () => {
    expect(redactUrl('https://user:pa55word@x.test/path')).toBe(`https://${REDACTED}@x.test/path`)
  })

  it('leaves an address without credentials as it was', () => {
    const url = 'https://api.test/v1/published/products?limit=20&cursor=abc&shop_key=s1'
    expect(redactUrl(url)).toBe(url)
  })
})

describe('redactText', () => {
  it('redacts Bearer and Basic credentials but keeps the scheme', () => {
    expect(redactText('authorization: Bearer eyJhbGciOi.x.y')).toBe(`authorization: Bearer ${REDACTED}`)
    expect(redactText('Basic aWQ6c8OpY3JldA==')).toBe(`Basic ${REDACTED}`)
  })

  it('redacts credentials in JSON text', () => {
    const text = redactText('{"access_token":"tok-123456","token_type":"Bearer","expires_in":3600}')
    expect(text).toBe(`{"access_token":"${REDACTED}","token_type":"Bearer","expires_in":3600}`)
  })

  it('redacts credentials in a form body', () => {
    expect(redactText('grant_type=client_credentials&client_secret=hunter22')).toBe(
      `grant_type=client_credentials&client_secret=${REDACTED}`,
    )
  })

  it('redacts a remembered value wherever it appears, also url-encoded', () => {
    rememberSecret('s3cret/with+chars')
    const text = redactText('invalid secret s3cret/with+chars (s3cret%2Fwith%2Bchars)')
    expect(text).toBe(`invalid secret ${REDACTED} (${REDACTED})`)
  })

  it('does not remember values shorter than 8 characters, so that they cannot garble text', () => {
    rememberSecret('abc')
    expect(redactText('abc abc')).toBe('abc abc')
  })
})

describe('redactBody', () => {
  it('redacts members with a secret name at any depth and keeps the rest', () => {
    const body = { error: 'invalid_client', details: [{ field: 'token', token: 'abc123456789' }] }
    expect(redactBody(body)).toEqual({
      error: 'invalid_client',
      details: [{ field: 'token', token: REDACTED }],
    })
  })

  it('returns the body itself when it holds no credential', () => {
    const body = { message: 'limit must be 1 to 200', field: 'limit' }
    expect(redactBody(body)).toBe(body)
  })
})

describe('redactHeaders', () => {
  it('redacts credential headers and returns a copy', () => {
    const headers = new Headers({ 'set-cookie': 'session=abc', 'x-request-id': 'r1' })
    const redacted = redactHeaders(headers)
    expect(redacted.get('set-cookie')).toBe(REDACTED)
    expect(redacted.get('x-request-id')).toBe('r1')
    expect(headers.get('set-cookie')).toBe('session=abc')
  })
})

describe('redactCause', () => {
  it('copies an error that holds a credential, keeping its class, name and code', () => {
    const cause = Object.assign(new TypeError('Failed to parse URL from https://x.test/?token=abcdef12345'), {
      code: 'ERR_INVALID_URL',
    })
    const redacted = redactCause(cause) as TypeError & { code: string }
    expect(redacted).toBeInstanceOf(TypeError)
    expect(redacted.name).toBe('TypeError')
    expect(redacted.code).toBe('ERR_INVALID_URL')
    expect(redacted.message).toBe(`Failed to parse URL from https://x.test/?token=${REDACTED}`)
    expect(redacted.stack).not.toContain('abcdef12345')
  })

  it('redacts the causes of a cause', () => {
    const inner = new Error('Bearer abcdefgh12345678')
    const redacted = redactCause(new Error('fetch failed', { cause: inner })) as Error
    expect((redacted.cause as Error).message).toBe(`Bearer ${REDACTED}`)
  })

  it('keeps an error without credentials as it is', () => {
    const cause = new Error('ECONNREFUSED 127.0.0.1:1')
    expect(redactCause(cause)).toBe(cause)
  })
})

describe('the cursor secret', () => {
  afterEach(() => forgetSecrets())

  it('is redacted from text once a client is created with it', async () => {
    const { createClient } = await import('../client/client.ts')
    const cursorSecret = 'a-cursor-secret-only-for-this-test'
    createClient({ clientId: 'id', clientSecret: 'a-client-secret-for-this-test', cursorSecret })
    expect(redactText(`signed with ${cursorSecret}`)).toBe(`signed with ${REDACTED}`)
  })
})
