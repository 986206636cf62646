import { ValidationError } from '../errors.ts'
import { type Addresses, resolveAddresses } from './addresses.ts'
import type { ClientOptions } from './client-options.ts'
import { ENVIRONMENT_VARIABLES, type EnvironmentSource, environmentVariable } from './environment.ts'
import { checkOptionNames } from './option-names.ts'
import type { TokenStore } from './shared-state.ts'
import type { CacheSettings, Fetch, HttpSettings } from './transport/http.ts'
import { isIntegerIn } from './validate.ts'

/** The options a client takes as given, or undefined. */
type Given =
  | 'clientId'
  | 'clientSecret'
  | 'cursorSecret'
  | 'websiteId'
  | 'genesisSecret'
  | 'tokenStore'
  | 'rateBudget'
  | 'requestOptions'

/**
 * What a client is, decided from its options and the environment before anything is built. Without
 * `cursorSecret`, the cursor key derives from `clientSecret`.
 */
export type ClientSettings = { [Name in Given]: ClientOptions[Name] | undefined } & {
  /** The transport's settings; `fetch` is the option's, undefined for the global one. */
  http: Omit<HttpSettings, 'fetch'> & { fetch: Fetch | undefined }
  addresses: Addresses
  maxConcurrency: number
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

function cacheSettings(
  cache: ClientOptions['cache'],
  clientId: string | undefined,
): CacheSettings | undefined {
  if (cache === undefined) return undefined
  const options = 'store' in cache ? cache : { store: cache }
  return {
    store: options.store,
    ttl: options.ttl ?? 300,
    staleWhileRevalidate: options.staleWhileRevalidate ?? 0,
    staleIfError: options.staleIfError ?? 86_400,
    tags: options.tags ?? [],
    onError: options.onError,
    keyPrefix: `vr:${clientId ?? ''}:`,
  }
}

/**
 * The settings of a client: each option as given, else its `VERIFIED_REVIEWS_*` variable in `env`
 * (trimmed, blank is unset), else its default. Pure: it reads nothing but its arguments, so that the
 * caller decides which environment applies (`process.env`, an Astro project's `.env` files).
 *
 * @throws ValidationError naming the first bad option (or the variable that gave it), and every
 * unknown option at once.
 */
export function resolveSettings(options: ClientOptions, env: EnvironmentSource): ClientSettings {
  checkOptionNames(options)
  const variable = (key: keyof typeof ENVIRONMENT_VARIABLES) => environmentVariable(key, env)
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

  const addresses = resolveAddresses(options, options.origin ?? variable('origin'))
  const clientId = options.clientId ?? variable('clientId')
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
  const cursorSecret = options.cursorSecret ?? variable('cursorSecret')
  check(
    cursorSecret === undefined || (typeof cursorSecret === 'string' && cursorSecret.length >= 16),
    'cursorSecret',
    `must be a string of at least 16 characters${options.cursorSecret === undefined ? ` (${ENVIRONMENT_VARIABLES.cursorSecret})` : ''}`,
  )
  check(
    options.requestOptions === undefined || typeof options.requestOptions === 'function',
    'requestOptions',
    'must be a function of the operation and its parameters',
  )

  return {
    http: {
      fetch: options.fetch,
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
      cache: cacheSettings(options.cache, clientId),
    },
    addresses,
    clientId,
    clientSecret: options.clientSecret ?? variable('clientSecret'),
    cursorSecret,
    websiteId: options.websiteId ?? variable('websiteId'),
    genesisSecret: options.genesisSecret ?? variable('genesisSecret'),
    maxConcurrency,
    tokenStore: options.tokenStore,
    rateBudget: options.rateBudget,
    requestOptions: options.requestOptions,
  }
}
