import { afterEach, describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import { AuthenticationError, ValidationError } from '../base/errors.ts'
import { verifyCredentials } from './verify-credentials.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('verifyCredentials', () => {
  it('resolves for credentials the token endpoint accepts, with one token request and no API call', async () => {
    for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
    await expect(verifyCredentials()).resolves.toBeUndefined()
    expect((await sb.stats()).operations).toEqual({ 'token.published': 1 })
  })

  it('rejects with an AuthenticationError when the token endpoint refuses them', async () => {
    await expect(
      verifyCredentials({
        origin: sb.sandbox.origin,
        clientId: sb.sandbox.clientId,
        clientSecret: 'not-the-secret',
        maxRetries: 0,
      }),
    ).rejects.toBeInstanceOf(AuthenticationError)
  })

  it('rejects naming the variable of a missing credential, before any request', async () => {
    for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', '')
    const rejection = verifyCredentials()
    await expect(rejection).rejects.toBeInstanceOf(ValidationError)
    await expect(rejection).rejects.toThrow(/VERIFIED_REVIEWS_CLIENT_ID/)
    expect((await sb.stats()).operations).toEqual({})
  })
})
