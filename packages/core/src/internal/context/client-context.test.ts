import { describe, expect, it } from 'vitest'
import { ValidationError } from '../base/errors.ts'
import type { SharedRateBudget, TokenStore } from '../base/shared-state.ts'
import { resolveSettings } from '../settings/settings.ts'
import { createContext } from './client-context.ts'

const ORIGIN = 'http://127.0.0.1:4010'

describe('createContext', () => {
  it('keys the shared token and rate budget by API, endpoint and account, never by secret', async () => {
    const keys: string[] = []
    const tokenStore: TokenStore = {
      get: async (key) => {
        keys.push(key)
        return { value: 'held', issuedAt: Date.now(), expiresAt: Date.now() + 3_600_000 }
      },
      set: async () => {},
      delete: async () => {},
      lock: async () => undefined,
    }
    const rateBudget: SharedRateBudget = { reserve: async () => 0, settle: async () => {} }
    const context = createContext(
      resolveSettings(
        { clientId: 'shop', clientSecret: 'a-secret', origin: ORIGIN, tokenStore, rateBudget },
        {},
      ),
    )
    await context.published.token?.get()
    await context.purchaseEvents.token?.get()
    expect(keys).toEqual([
      `published-token:shop@${ORIGIN}/realms/skeepers/protocol/openid-connect/token`,
      `purchase-events-token:shop@${ORIGIN}/am/oauth2/alpha/access_token`,
    ])
    expect(context.published.sharedBudget?.key).toBe(`published:shop@${ORIGIN}/verified-reviews/v1/published`)
    expect(context.purchaseEvents.sharedBudget?.key).toBe(`purchase-events:shop@${ORIGIN}/purchase-event/`)
    expect(context.published.budget).not.toBe(context.purchaseEvents.budget)
  })

  it('asks for the credential that is missing, and its variable, at the first token request', async () => {
    const context = createContext(resolveSettings({ clientId: 'shop' }, {}))
    const refusal = await context.published.token?.get().catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(ValidationError)
    expect((refusal as ValidationError).message).toBe(
      'clientSecret: is required: pass it or set VERIFIED_REVIEWS_CLIENT_SECRET',
    )
  })
})
