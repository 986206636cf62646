import { ValidationError } from '../base/errors.ts'
import { rememberSecret } from '../base/redact.ts'
import { check } from '../base/validate.ts'
import { CursorLimits } from '../cursor/cursor-limits.ts'
import {
  type ClientInternals,
  clientSecretCursorKey,
  cursorSignerFromSecret,
  cursorSignerOf,
  unusableCursorSigner,
} from '../cursor/signed-cursor.ts'
import { ENVIRONMENT_VARIABLES } from '../settings/environment.ts'
import type { ClientSettings } from '../settings/settings.ts'
import type { HttpSettings, Service } from '../transport/http.ts'
import { requestToken } from '../transport/oauth.ts'
import { RateBudget } from '../transport/rate-budget.ts'
import { TokenCache } from '../transport/token-cache.ts'

/** Everything the resources of one client share. */
export interface ClientContext
  extends Pick<
    ClientSettings,
    'addresses' | 'maxConcurrency' | 'websiteId' | 'genesisSecret' | 'requestOptions'
  > {
  settings: HttpSettings
  published: Service
  purchaseEvents: Service
  legacy: Service
  genesis: Service
  cursors: CursorLimits
  /** Lent to the reviews endpoint and the review components (see `ClientInternals`). */
  internals: ClientInternals
}

const NO_CURSOR_SECRET =
  'is required to sign review cursors: pass cursorSecret or clientSecret, or set VERIFIED_REVIEWS_CURSOR_SECRET or VERIFIED_REVIEWS_CLIENT_SECRET'

/**
 * Builds the shared state of a client from its settings (see `resolveSettings`): the transport, a token
 * cache and a rate budget per API, the cursor signer.
 */
export function createContext(resolved: ClientSettings): ClientContext {
  const { addresses, clientId, clientSecret, genesisSecret, cursorSecret } = resolved
  const hasFetch = resolved.http.fetch !== undefined || typeof globalThis.fetch === 'function'
  check(hasFetch, 'fetch', 'is required where there is no global fetch')
  // Looked up at each call, so that a fetch a framework patches in later (Next.js) is the one used.
  const settings: HttpSettings = {
    ...resolved.http,
    fetch: resolved.http.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  }
  // Redacted wherever they would turn up in an error or event.
  rememberSecret(clientSecret)
  rememberSecret(genesisSecret)
  rememberSecret(cursorSecret)
  // Token requests take no fetchOptions and no cache: a token answer must never be cached.
  const tokenSettings: HttpSettings = { ...settings, fetchOptions: undefined, cache: undefined }

  const { tokenStore, rateBudget } = resolved
  /** An API with a token: its own rate budget, the one shared with other instances, its token cache. */
  const api = (
    source: 'published' | 'purchase-events',
    url: string,
    tokenUrl: string,
    form: Record<string, string>,
  ): Service & { budget: RateBudget } => {
    const tokenSource = `${source}-token` as const
    // Keyed by API, endpoint and account, never by secret.
    const key = (name: string, address: string) => `${name}:${clientId ?? ''}@${address}`
    const token = new TokenCache(
      () => {
        if (clientId === undefined || clientSecret === undefined) {
          const field = clientId === undefined ? 'clientId' : 'clientSecret'
          const message = `is required: pass it or set ${ENVIRONMENT_VARIABLES[field]}`
          return Promise.reject(new ValidationError([{ field, message }]))
        }
        const service = { source: tokenSource }
        return requestToken(tokenSettings, { service, url: tokenUrl, clientId, clientSecret, form })
      },
      Date.now,
      tokenStore === undefined ? undefined : { store: tokenStore, key: key(tokenSource, tokenUrl) },
    )
    const shared =
      rateBudget === undefined ? {} : { sharedBudget: { budget: rateBudget, key: key(source, url) } }
    return { source, budget: new RateBudget(), ...shared, token }
  }
  const published = api('published', addresses.publishedUrl, addresses.publishedTokenUrl, {
    audience: 'verified-reviews',
  })

  return {
    settings,
    addresses,
    published,
    purchaseEvents: api('purchase-events', addresses.purchaseEventsUrl, addresses.purchaseEventsTokenUrl, {
      scope: 'openid',
    }),
    legacy: { source: 'legacy' },
    genesis: { source: 'genesis' },
    cursors: new CursorLimits(),
    maxConcurrency: resolved.maxConcurrency,
    websiteId: resolved.websiteId,
    genesisSecret,
    requestOptions: resolved.requestOptions,
    internals: {
      cursorSigner:
        cursorSecret !== undefined
          ? cursorSignerFromSecret(cursorSecret)
          : clientSecret !== undefined
            ? cursorSignerOf(() => clientSecretCursorKey(clientId, clientSecret))
            : unusableCursorSigner(
                () => new ValidationError([{ field: 'cursorSecret', message: NO_CURSOR_SECRET }]),
              ),
    },
  }
}
