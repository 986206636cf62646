import { type Addresses, resolveAddresses } from './addresses.ts'
import type { ClientOptions } from './client-options.ts'
import { ENVIRONMENT_VARIABLES, type EnvironmentSource, environmentVariable } from './environment.ts'
import { checkOptionNames } from './option-names.ts'
import type { CacheSettings, Fetch, HttpSettings } from './transport/http.ts'
import { check, isIntegerIn } from './validate.ts'

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

/** Each number option: its default, the values it takes, and what to say of another. */
const NUMBERS = {
  timeout: [30_000, (value) => value > 0, 'must be a positive number of milliseconds'],
  totalTimeout: [
    60_000,
    (value) => value > 0,
    'must be a positive number of milliseconds (Infinity for none)',
  ],
  maxRetries: [2, (value) => isIntegerIn(value, 0, 100), 'must be an integer from 0 to 100'],
  maxResponseBytes: [
    10 * 1024 * 1024,
    (value) => isIntegerIn(value, 1, Number.MAX_SAFE_INTEGER),
    'must be a positive integer number of bytes',
  ],
  maxRetryWait: [30_000, (value) => value >= 0, 'must be milliseconds, 0 or more'],
  maxConcurrency: [4, (value) => isIntegerIn(value, 1, 64), 'must be an integer from 1 to 64'],
} satisfies Record<string, [number, (value: number) => boolean, string]>

/** Whether `value` has a method of each name (a store or budget given as an option). */
function hasMethods(value: unknown, ...names: string[]): boolean {
  return (
    value != null && names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function')
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
  const number = (name: keyof typeof NUMBERS): number => {
    const [fallback, fits, message] = NUMBERS[name]
    const value = options[name] ?? fallback
    check(typeof value === 'number' && fits(value), name, message)
    return value
  }
  const addresses = resolveAddresses(options, options.origin ?? variable('origin'))
  const clientId = options.clientId ?? variable('clientId')
  const { tokenStore, rateBudget } = options
  const storeFits = tokenStore === undefined || hasMethods(tokenStore, 'get', 'set', 'delete', 'lock')
  check(storeFits, 'tokenStore', 'must have get, set, delete and lock methods')
  const budgetFits = rateBudget === undefined || hasMethods(rateBudget, 'reserve', 'settle')
  check(budgetFits, 'rateBudget', 'must have reserve and settle methods')
  const cursorSecret = options.cursorSecret ?? variable('cursorSecret')
  check(
    cursorSecret === undefined || (typeof cursorSecret === 'string' && cursorSecret.length >= 16),
    'cursorSecret',
    `must be a string of at least 16 characters${options.cursorSecret === undefined ? ` (${ENVIRONMENT_VARIABLES.cursorSecret})` : ''}`,
  )
  const hookFits = options.requestOptions === undefined || typeof options.requestOptions === 'function'
  check(hookFits, 'requestOptions', 'must be a function of the operation and its parameters')

  return {
    http: {
      fetch: options.fetch,
      timeout: number('timeout'),
      totalTimeout: number('totalTimeout'),
      maxRetries: number('maxRetries'),
      maxRetryWait: number('maxRetryWait'),
      maxResponseBytes: number('maxResponseBytes'),
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
    maxConcurrency: number('maxConcurrency'),
    tokenStore,
    rateBudget,
    requestOptions: options.requestOptions,
  }
}
