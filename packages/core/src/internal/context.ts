import { ValidationError } from '../errors.ts'
import type { RequestOptionsHook } from '../resources/operations.ts'
import { type Addresses, resolveAddresses } from './addresses.ts'
import type { ClientOptions } from './client-options.ts'
import { CursorLimits } from './cursors.ts'
import {
  type ClientInternals,
  clientSecretCursorKey,
  cursorSignerFromSecret,
  cursorSignerOf,
  unusableCursorSigner,
} from './endpoint/signed-cursor.ts'
import { environmentVariable } from './environment.ts'
import { rememberSecret } from './redact.ts'
import type { TokenStore } from './shared-state.ts'
import type { CacheSettings, Fetch, HttpSettings, Service } from './transport/http.ts'
import { requestToken } from './transport/oauth.ts'
import { RateBudget } from './transport/rate-budget.ts'
import type { CacheOptions } from './transport/request-options.ts'
import { TokenCache } from './transport/token-cache.ts'
import { isIntegerIn } from './validate.ts'

/** Everything the resources of one client share. */
export interface ClientContext {
  settings: HttpSettings
  addresses: Addresses
  published: Service
  purchaseEvents: Service
  legacy: Service
  genesis: Service
  cursors: CursorLimits
  maxConcurrency: number
  websiteId: string | undefined
  genesisSecret: string | undefined
  /** The `requestOptions` hook: the request options of each call, from its operation and parameters. */
  requestOptions: RequestOptionsHook | undefined
  /** Lent to the reviews endpoint and the review components (see `ClientInternals`). */
  internals: ClientInternals
}

/** Reads an environment variable by the rules of `readEnvironment` (trimmed, blank is unset); none on edge runtimes. */
export function env(name: string): string | undefined {
  return environmentVariable(name)
}

function check(valid: boolean, field: string, message: string): void {
  if (!valid) throw new ValidationError([{ field, message }])
}

function isTokenStore(value: unknown): value is TokenStore {
  const store = value as Partial<TokenStore> | null
  return (
    typeof store === 'object' &&
    store !== null &&
    typeof store.get === 'function' &&
    typeof store.set === 'function' &&
    typeof store.delete === 'function' &&
    typeof store.lock === 'function'
  )
}

/**
 * Every option of `createClient`. Typed over `ClientOptions`, so that an option added there and not
 * here (or left here once removed there) fails the type check.
 */
const CLIENT_OPTIONS: { readonly [Name in keyof Required<ClientOptions>]: true } = {
  clientId: true,
  clientSecret: true,
  origin: true,
  cursorSecret: true,
  publishedUrl: true,
  publishedTokenUrl: true,
  purchaseEventsUrl: true,
  purchaseEventsTokenUrl: true,
  legacyUrl: true,
  genesisUrl: true,
  websiteId: true,
  genesisSecret: true,
  fetch: true,
  timeout: true,
  totalTimeout: true,
  maxRetries: true,
  maxRetryWait: true,
  maxResponseBytes: true,
  signal: true,
  fetchOptions: true,
  headers: true,
  maxConcurrency: true,
  onRetry: true,
  onRateLimit: true,
  cache: true,
  tokenStore: true,
  rateBudget: true,
  requestOptions: true,
}

/** Edits (insertions, deletions, substitutions) from `a` to `b`. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      row.push(
        Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost),
      )
    }
    previous = row
  }
  return previous[b.length] as number
}

/** The option `name` was probably meant to be: the same in another case, else the nearest within a third of its letters (two at least). */
function meant(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase()
  const sameLetters = known.find((option) => option.toLowerCase() === lower)
  if (sameLetters !== undefined) return sameLetters
  let best: { option: string; edits: number } | undefined
  for (const option of known) {
    const edits = distance(lower, option.toLowerCase())
    const near = edits <= Math.max(2, Math.floor(option.length / 3))
    if (near && (best === undefined || edits < best.edits)) best = { option, edits }
  }
  return best?.option
}

/** Refuses options that are not an object, and names that are no option (a typo would be ignored). */
function checkNames(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ValidationError([{ field: 'options', message: 'must be an object of client options' }])
  }
  const known = Object.keys(CLIENT_OPTIONS)
  // Own names only: an option named `constructor` or `__proto__` is no option, not Object's.
  const unknown = Object.keys(options).filter((name) => !Object.hasOwn(CLIENT_OPTIONS, name))
  const [first, ...rest] = unknown.map((name) => {
    const guess = meant(name, known)
    return {
      field: name,
      message: `is not an option of createClient${guess === undefined ? '' : ` (did you mean ${guess}?)`}; the options are ${known.join(', ')}`,
    }
  })
  if (first !== undefined) throw new ValidationError([first, ...rest])
}

/** Checks the options, applies defaults and builds the shared state of a client. */
export function createContext(options: ClientOptions): ClientContext {
  checkNames(options)
  const timeout = options.timeout ?? 30_000
  const totalTimeout = options.totalTimeout ?? 60_000
  const maxRetries = options.maxRetries ?? 2
  const maxRetryWait = options.maxRetryWait ?? 30_000
  const maxResponseBytes = options.maxResponseBytes ?? 10 * 1024 * 1024
  const maxConcurrency = options.maxConcurrency ?? 4
  check(typeof timeout === 'number' && timeout > 0, 'timeout', 'must be a positive number of milliseconds')
  check(
    typeof totalTimeout === 'number' && totalTimeout > 0,
    'totalTimeout',
    'must be a positive number of milliseconds (Infinity for none)',
  )
  check(isIntegerIn(maxRetries, 0, 100), 'maxRetries', 'must be an integer from 0 to 100')
  check(
    isIntegerIn(maxResponseBytes, 1, Number.MAX_SAFE_INTEGER),
    'maxResponseBytes',
    'must be a positive integer number of bytes',
  )
  check(
    typeof maxRetryWait === 'number' && maxRetryWait >= 0,
    'maxRetryWait',
    'must be milliseconds, 0 or more',
  )
  check(isIntegerIn(maxConcurrency, 1, 64), 'maxConcurrency', 'must be an integer from 1 to 64')

  check(
    options.fetch !== undefined || typeof globalThis.fetch === 'function',
    'fetch',
    'is required where there is no global fetch',
  )
  // Looked up at each call, so that a fetch a framework patches in later (Next.js) is the one used.
  const fetch: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))

  const addresses = resolveAddresses(options, options.origin ?? env('VERIFIED_REVIEWS_ORIGIN'))
  const clientId = options.clientId ?? env('VERIFIED_REVIEWS_CLIENT_ID')
  const clientSecret = options.clientSecret ?? env('VERIFIED_REVIEWS_CLIENT_SECRET')
  const genesisSecret = options.genesisSecret ?? env('VERIFIED_REVIEWS_GENESIS_SECRET')
  // Redacted wherever they would turn up in an error or event.
  rememberSecret(clientSecret)
  rememberSecret(genesisSecret)

  const cacheOptions: CacheOptions | undefined =
    options.cache === undefined
      ? undefined
      : 'store' in options.cache
        ? options.cache
        : { store: options.cache }
  const cache: CacheSettings | undefined =
    cacheOptions === undefined
      ? undefined
      : {
          store: cacheOptions.store,
          ttl: cacheOptions.ttl ?? 300,
          staleWhileRevalidate: cacheOptions.staleWhileRevalidate ?? 0,
          staleIfError: cacheOptions.staleIfError ?? 86_400,
          tags: cacheOptions.tags ?? [],
          onError: cacheOptions.onError,
          keyPrefix: `vr:${clientId ?? ''}:`,
        }

  const settings: HttpSettings = {
    fetch,
    timeout,
    totalTimeout,
    maxRetries,
    maxRetryWait,
    maxResponseBytes,
    signal: options.signal,
    fetchOptions: options.fetchOptions,
    headers: options.headers,
    onRetry: options.onRetry,
    onRateLimit: options.onRateLimit,
    cache,
  }
  // Token requests take no fetchOptions and no cache: a token answer must never be cached.
  const tokenSettings: HttpSettings = { ...settings, fetchOptions: undefined, cache: undefined }

  check(
    options.tokenStore === undefined || isTokenStore(options.tokenStore),
    'tokenStore',
    'must have get, set, delete and lock methods',
  )
  check(
    options.rateBudget === undefined ||
      (typeof options.rateBudget?.reserve === 'function' && typeof options.rateBudget.settle === 'function'),
    'rateBudget',
    'must have reserve and settle methods',
  )
  const tokenStore = options.tokenStore
  const tokenCache = (
    source: 'published-token' | 'purchase-events-token',
    url: string,
    form: Record<string, string>,
  ) =>
    new TokenCache(
      () => {
        if (clientId === undefined || clientSecret === undefined) {
          const field = clientId === undefined ? 'clientId' : 'clientSecret'
          const variable =
            clientId === undefined ? 'VERIFIED_REVIEWS_CLIENT_ID' : 'VERIFIED_REVIEWS_CLIENT_SECRET'
          return Promise.reject(
            new ValidationError([{ field, message: `is required: pass it or set ${variable}` }]),
          )
        }
        return requestToken(tokenSettings, { service: { source }, url, clientId, clientSecret, form })
      },
      Date.now,
      // Keyed by API, token endpoint and account, never by secret.
      tokenStore === undefined ? undefined : { store: tokenStore, key: `${source}:${clientId ?? ''}@${url}` },
    )
  const sharedBudget = (source: 'published' | 'purchase-events', url: string) =>
    options.rateBudget === undefined
      ? {}
      : { sharedBudget: { budget: options.rateBudget, key: `${source}:${clientId ?? ''}@${url}` } }

  const cursorSecret = options.cursorSecret ?? env('VERIFIED_REVIEWS_CURSOR_SECRET')
  check(
    cursorSecret === undefined || (typeof cursorSecret === 'string' && cursorSecret.length >= 16),
    'cursorSecret',
    `must be a string of at least 16 characters${options.cursorSecret === undefined ? ' (VERIFIED_REVIEWS_CURSOR_SECRET)' : ''}`,
  )
  check(
    options.requestOptions === undefined || typeof options.requestOptions === 'function',
    'requestOptions',
    'must be a function of the operation and its parameters',
  )
  rememberSecret(cursorSecret)
  const publishedBudget = new RateBudget()

  return {
    settings,
    addresses,
    published: {
      source: 'published',
      budget: publishedBudget,
      ...sharedBudget('published', addresses.publishedUrl),
      token: tokenCache('published-token', addresses.publishedTokenUrl, { audience: 'verified-reviews' }),
    },
    purchaseEvents: {
      source: 'purchase-events',
      budget: new RateBudget(),
      ...sharedBudget('purchase-events', addresses.purchaseEventsUrl),
      token: tokenCache('purchase-events-token', addresses.purchaseEventsTokenUrl, { scope: 'openid' }),
    },
    legacy: { source: 'legacy' },
    genesis: { source: 'genesis' },
    cursors: new CursorLimits(),
    maxConcurrency,
    websiteId: options.websiteId ?? env('VERIFIED_REVIEWS_WEBSITE_ID'),
    genesisSecret,
    requestOptions: options.requestOptions,
    internals: {
      cursorSigner:
        cursorSecret !== undefined
          ? cursorSignerFromSecret(cursorSecret)
          : clientSecret !== undefined
            ? cursorSignerOf(() => clientSecretCursorKey(clientId, clientSecret))
            : unusableCursorSigner(
                () =>
                  new ValidationError([
                    {
                      field: 'cursorSecret',
                      message:
                        'is required to sign review cursors: pass cursorSecret or clientSecret, or set VERIFIED_REVIEWS_CURSOR_SECRET or VERIFIED_REVIEWS_CLIENT_SECRET',
                    },
                  ]),
              ),
      rateShare: () => publishedBudget.share(),
      rateResetIn: () => publishedBudget.resetIn(),
    },
  }
}
