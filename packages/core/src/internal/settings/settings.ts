import { ValidationError } from '../base/errors.ts'
import { check, isIntegerIn } from '../base/validate.ts'
import type { CacheSettings, Fetch, HttpSettings } from '../transport/http.ts'
import { type Addresses, resolveAddresses } from './addresses.ts'
import type { ClientOptions } from './client-options.ts'
import { ENVIRONMENT_VARIABLES, type EnvironmentSource, environmentClientOptions } from './environment.ts'

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
  // The same letters in another case are 0 edits away: no option comes nearer.
  let best: { option: string; edits: number } | undefined
  for (const option of known) {
    const edits = distance(lower, option.toLowerCase())
    const near = edits <= Math.max(2, Math.floor(option.length / 3))
    if (near && (best === undefined || edits < best.edits)) best = { option, edits }
  }
  return best?.option
}

/** Refuses options that are not an object, and names that are no option (a typo would be ignored). */
function checkOptionNames(options: unknown): void {
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
 * (trimmed, blank is unset: `readEnvironment(env).client`, through the same function), else its
 * default. Pure: it reads nothing but its arguments, so that the caller decides which environment
 * applies (`process.env`, an Astro project's `.env` files).
 *
 * @throws ValidationError naming the first bad option (or the variable that gave it), and every
 * unknown option at once.
 */
export function resolveSettings(options: ClientOptions, env: EnvironmentSource): ClientSettings {
  checkOptionNames(options)
  const variables = environmentClientOptions(env)
  const number = (name: keyof typeof NUMBERS): number => {
    const [fallback, fits, message] = NUMBERS[name]
    const value = options[name] ?? fallback
    check(typeof value === 'number' && fits(value), name, message)
    return value
  }
  const addresses = resolveAddresses(options, options.origin ?? variables.origin)
  const clientId = options.clientId ?? variables.clientId
  const { tokenStore, rateBudget } = options
  const storeFits = tokenStore === undefined || hasMethods(tokenStore, 'get', 'set', 'delete', 'lock')
  check(storeFits, 'tokenStore', 'must have get, set, delete and lock methods')
  const budgetFits = rateBudget === undefined || hasMethods(rateBudget, 'reserve', 'settle')
  check(budgetFits, 'rateBudget', 'must have reserve and settle methods')
  const cursorSecret = options.cursorSecret ?? variables.cursorSecret
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
    clientSecret: options.clientSecret ?? variables.clientSecret,
    cursorSecret,
    websiteId: options.websiteId ?? variables.websiteId,
    genesisSecret: options.genesisSecret ?? variables.genesisSecret,
    maxConcurrency: number('maxConcurrency'),
    tokenStore,
    rateBudget,
    requestOptions: options.requestOptions,
  }
}
