import { describe, expect, it } from 'vitest'
import { bearerToken, matchesSecret } from './secret.ts'

describe('matchesSecret', () => {
  it('accepts the secret', async () => {
    expect(await matchesSecret('s3cret-value', ['s3cret-value'])).toBe(true)
  })

  it('accepts any of several secrets', async () => {
    expect(await matchesSecret('cron-secret', ['revalidate-secret', 'cron-secret'])).toBe(true)
  })

  it('refuses a prefix, a longer value and another case', async () => {
    for (const given of ['s3cret', 's3cret-value!', 'S3CRET-VALUE']) {
      expect(await matchesSecret(given, ['s3cret-value'])).toBe(false)
    }
  })

  it('refuses everything when no secret is set', async () => {
    expect(await matchesSecret('', [])).toBe(false)
  })
})

describe('bearerToken', () => {
  it('reads the token of a Bearer header, whatever the case of the scheme', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def')
    expect(bearerToken('bearer abc')).toBe('abc')
  })

  it('reads nothing from another scheme, an empty token or no header', () => {
    expect(bearerToken('Basic YWJj')).toBeUndefined()
    expect(bearerToken('Bearer ')).toBeUndefined()
    expect(bearerToken(null)).toBeUndefined()
  })
})
