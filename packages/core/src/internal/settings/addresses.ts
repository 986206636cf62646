import { check, isHttpUrl } from '../base/validate.ts'

/** Production addresses of every API and token endpoint, from the public documentation. */
export const DEFAULT_ADDRESSES = {
  publishedUrl: 'https://api.skeepers.io/verified-reviews/v1/published',
  publishedTokenUrl: 'https://auth.skeepers.io/realms/skeepers/protocol/openid-connect/token',
  purchaseEventsUrl: 'https://api.skeepers.io/purchase-event/',
  purchaseEventsTokenUrl: 'https://auth.skeepers.io/am/oauth2/alpha/access_token',
  legacyUrl: 'https://api-product-reviews.rr.skeepers.io/v1',
  genesisUrl: 'https://api.skeepers.io/genesis',
} as const

/** The address of every API and token endpoint. */
export type Addresses = Record<keyof typeof DEFAULT_ADDRESSES, string>

/** `address` with its scheme, host and port taken from `origin`; path and query kept. */
export function withOrigin(address: string, origin: string): string {
  const url = new URL(address)
  return `${new URL(origin).origin}${url.pathname}${url.search}`
}

/**
 * Every address after options: an address set alone wins; otherwise the default, moved to
 * `origin` when one is given.
 */
export function resolveAddresses(given: Partial<Addresses>, origin: string | undefined): Addresses {
  check(origin === undefined || isHttpUrl(origin), 'origin', 'must be an absolute http(s) URL')
  const resolved: Addresses = { ...DEFAULT_ADDRESSES }
  for (const key of Object.keys(DEFAULT_ADDRESSES) as (keyof Addresses)[]) {
    const value = given[key]
    if (value !== undefined) {
      check(isHttpUrl(value), key, 'must be an absolute http(s) URL')
      resolved[key] = value
    } else if (origin !== undefined) {
      resolved[key] = withOrigin(DEFAULT_ADDRESSES[key], origin)
    }
  }
  return resolved
}

/** `base` joined with a path, with exactly one slash between them. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
}
