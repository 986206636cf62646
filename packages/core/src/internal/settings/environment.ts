import { LANGUAGES, type Language } from '../../types/published.ts'
import { ValidationError } from '../base/errors.ts'

/**
 * The settings the packages read from the environment, each from one variable, by one set of rules:
 * a value is trimmed, and a variable that is unset, empty or only blank counts as unset.
 */
export interface VerifiedReviewsEnvironment {
  /** `VERIFIED_REVIEWS_CLIENT_ID`: client id of the API credentials. */
  clientId: string | undefined
  /** `VERIFIED_REVIEWS_CLIENT_SECRET`: client secret of the API credentials. */
  clientSecret: string | undefined
  /** `VERIFIED_REVIEWS_ORIGIN`: one origin replacing every API address's (a sandbox, a proxy). */
  origin: string | undefined
  /** `VERIFIED_REVIEWS_WEBSITE_ID`: default website of purchase events, legacy and Genesis calls. */
  websiteId: string | undefined
  /** `VERIFIED_REVIEWS_GENESIS_SECRET`: secret key of the Genesis API. */
  genesisSecret: string | undefined
  /**
   * `VERIFIED_REVIEWS_CURSOR_SECRET`: secret of the key that signs the review cursors a site hands out
   * (the client option `cursorSecret`), at least 16 characters: a random one, the same on every server.
   */
  cursorSecret: string | undefined
  /** `VERIFIED_REVIEWS_REVALIDATE_SECRET`: the secret a scheduler sends to the revalidate and outbox routes. */
  revalidateSecret: string | undefined
  /** `CRON_SECRET`: Vercel Cron's secret, accepted by the same routes. */
  cronSecret: string | undefined
  /** `VERIFIED_REVIEWS_REVALIDATE`: seconds review data stays fresh in the Next.js data cache (a whole number). */
  revalidate: number | undefined
  /** `VERIFIED_REVIEWS_DIST_DIR`: the Next.js build directory, when `next.config` sets another `distDir`. */
  distDir: string | undefined
  /**
   * `VERIFIED_REVIEWS_FAIL_ON_ERROR`: whether a build stops when review data cannot be fetched. `1`,
   * `true` or `yes`: it stops for any problem, missing credentials included; `0`, `false` or `no`: it
   * never stops, and builds the pages without reviews; unset: the default, which stops when
   * credentials are set but refused or the API cannot be reached, and builds without reviews when
   * none are set.
   */
  failOnError: boolean | undefined
  /**
   * `VERIFIED_REVIEWS_BUILD_PRODUCTS`: a file holding the JSON list of the products (`product_variation_id`)
   * a build prerenders, which `withVerifiedReviews({ products })` of the Next.js package writes for its
   * build workers: the build then fetches those products' reviews when that costs fewer calls.
   */
  buildProducts: string | undefined
  /**
   * `VERIFIED_REVIEWS_BUILD_BRAND_REVIEWS`: whether a build also syncs the brand and shop reviews and
   * their statistics into its review store (`1`, `true` or `yes`; `0`, `false` or `no`), which
   * `withVerifiedReviews({ brandReviews })` of the Next.js package sets for its build workers.
   */
  buildBrandReviews: boolean | undefined
  /**
   * `VERIFIED_REVIEWS_LANGUAGES`: the languages of the site's pages, separated by commas or spaces
   * (`en,fr,de`), among the 13 of `translated_review`: the site's replica keeps each review with the
   * translations into these alone, and none of the fields no page shows (`replicaLanguages`). Unset:
   * the replica keeps reviews whole.
   */
  replicaLanguages: Language[] | undefined
  /**
   * The client options these variables set, the unset ones left out: `clientId`, `clientSecret`,
   * `origin`, `websiteId`, `genesisSecret` and `cursorSecret`, as `createClient` reads them from the
   * process environment. Spread them under a client's own options to build a client from another record:
   * `createClient({ ...readEnvironment(record).client, ...options })`.
   */
  client: EnvironmentClientOptions
}

/** The client options that variables set, by option. */
const CLIENT_OPTIONS = [
  'clientId',
  'clientSecret',
  'origin',
  'websiteId',
  'genesisSecret',
  'cursorSecret',
] as const

/** The client options that variables set (a part of `createClient`'s options), each a string. */
export type EnvironmentClientOptions = { [Name in (typeof CLIENT_OPTIONS)[number]]?: string }

/** Every variable {@link readEnvironment} reads, by the setting it gives (`client` gathers some of them). */
export const ENVIRONMENT_VARIABLES = {
  clientId: 'VERIFIED_REVIEWS_CLIENT_ID',
  clientSecret: 'VERIFIED_REVIEWS_CLIENT_SECRET',
  origin: 'VERIFIED_REVIEWS_ORIGIN',
  websiteId: 'VERIFIED_REVIEWS_WEBSITE_ID',
  genesisSecret: 'VERIFIED_REVIEWS_GENESIS_SECRET',
  cursorSecret: 'VERIFIED_REVIEWS_CURSOR_SECRET',
  revalidateSecret: 'VERIFIED_REVIEWS_REVALIDATE_SECRET',
  cronSecret: 'CRON_SECRET',
  revalidate: 'VERIFIED_REVIEWS_REVALIDATE',
  distDir: 'VERIFIED_REVIEWS_DIST_DIR',
  failOnError: 'VERIFIED_REVIEWS_FAIL_ON_ERROR',
  buildProducts: 'VERIFIED_REVIEWS_BUILD_PRODUCTS',
  buildBrandReviews: 'VERIFIED_REVIEWS_BUILD_BRAND_REVIEWS',
  replicaLanguages: 'VERIFIED_REVIEWS_LANGUAGES',
} as const satisfies Record<Exclude<keyof VerifiedReviewsEnvironment, 'client'>, string>

const ENVIRONMENT_KEYS = Object.keys(ENVIRONMENT_VARIABLES) as (keyof typeof ENVIRONMENT_VARIABLES)[]

/** Where variables are read: a record such as `process.env`. */
export type EnvironmentSource = Readonly<Record<string, string | undefined>>

/**
 * The process's environment, read through `globalThis` so that runtimes without `process` have none: the
 * record of core's own entries that have no other (`createClient`, `defaultClient`, `verifyCredentials`).
 */
export function processEnvironment(): EnvironmentSource {
  return (globalThis as { process?: { env?: EnvironmentSource } }).process?.env ?? {}
}

/** The variable of `key` in `source` by the rules of {@link readEnvironment}: trimmed, undefined when unset or blank. */
function environmentVariable(
  key: keyof typeof ENVIRONMENT_VARIABLES,
  source: EnvironmentSource,
): string | undefined {
  const value = source[ENVIRONMENT_VARIABLES[key]]
  if (typeof value !== 'string') return undefined
  const trimmed = value.trim()
  return trimmed === '' ? undefined : trimmed
}

/**
 * The client options the variables of `source` set, the unset ones left out: the part of
 * {@link readEnvironment} that `resolveSettings` reads (without the checks of the other variables, which
 * a client does not use), so that a client and `readEnvironment(source).client` read them alike.
 */
export function environmentClientOptions(source: EnvironmentSource): EnvironmentClientOptions {
  return clientOptionsOf((name) => environmentVariable(name, source))
}

/** The client options among settings read by `read`, the unset ones left out. */
function clientOptionsOf(
  read: (name: (typeof CLIENT_OPTIONS)[number]) => string | undefined,
): EnvironmentClientOptions {
  const options: EnvironmentClientOptions = {}
  for (const name of CLIENT_OPTIONS) {
    const value = read(name)
    if (value !== undefined) options[name] = value
  }
  return options
}

const TRUE = ['1', 'true', 'yes']
const FALSE = ['0', 'false', 'no']

/**
 * The `VERIFIED_REVIEWS_*` settings (and Vercel's `CRON_SECRET`) of `source`: the one way from an
 * environment to the packages' settings and a client's options (`client`). Each entry passes its own
 * record (`process.env` in Node.js, the result of Vite's `loadEnv` in Astro, the environment over the
 * `.env` files in the `verified-reviews` command), so the same variables follow the same rules
 * everywhere: values are trimmed; unset, empty and blank variables count as unset.
 *
 * @throws ValidationError naming the variable, when `VERIFIED_REVIEWS_REVALIDATE` is not a whole number
 * of seconds, `VERIFIED_REVIEWS_FAIL_ON_ERROR` or `VERIFIED_REVIEWS_BUILD_BRAND_REVIEWS` is not a yes or a no (a typo must not silently turn a
 * setting off), `VERIFIED_REVIEWS_CURSOR_SECRET` is shorter than 16 characters, or
 * `VERIFIED_REVIEWS_LANGUAGES` names a language that is none of the 13 of `translated_review`.
 *
 * @example
 * const env = readEnvironment(process.env)
 * if (env.clientId === undefined) console.warn('VERIFIED_REVIEWS_CLIENT_ID is not set')
 * const vr = createClient({ ...env.client, timeout: 10_000 })
 */
export function readEnvironment(source: EnvironmentSource): VerifiedReviewsEnvironment {
  // Every setting as its variable reads (ENVIRONMENT_VARIABLES lists them all), each variable read once:
  // a lookup in `process.env` costs more than the rest of this function.
  const strings = {} as Record<keyof typeof ENVIRONMENT_VARIABLES, string | undefined>
  for (const key of ENVIRONMENT_KEYS) strings[key] = environmentVariable(key, source)
  const read = (key: keyof typeof ENVIRONMENT_VARIABLES) => strings[key]
  const refuse = (key: keyof typeof ENVIRONMENT_VARIABLES, message: string) => {
    throw new ValidationError([{ field: ENVIRONMENT_VARIABLES[key], message }])
  }
  const revalidate = read('revalidate')
  if (revalidate !== undefined && !/^[0-9]+$/.test(revalidate)) {
    refuse('revalidate', `must be a whole number of seconds, not "${revalidate}"`)
  }
  const yesOrNo = (key: 'failOnError' | 'buildBrandReviews'): boolean | undefined => {
    const value = read(key)?.toLowerCase()
    if (value !== undefined && !TRUE.includes(value) && !FALSE.includes(value)) {
      refuse(key, `must be one of ${[...TRUE, ...FALSE].join(', ')}, not "${value}"`)
    }
    return value === undefined ? undefined : TRUE.includes(value)
  }
  const failOnError = yesOrNo('failOnError')
  const buildBrandReviews = yesOrNo('buildBrandReviews')
  const cursorSecret = read('cursorSecret')
  if (cursorSecret !== undefined && cursorSecret.length < 16)
    refuse('cursorSecret', 'must be at least 16 characters')
  const languages = read('replicaLanguages')
    ?.toLowerCase()
    .split(/[\s,]+/)
    .filter((language) => language !== '')
  const unknown = languages?.filter((language) => !(LANGUAGES as readonly string[]).includes(language)) ?? []
  if (unknown.length > 0)
    refuse('replicaLanguages', `must list languages among ${LANGUAGES.join(', ')}, not ${unknown.join(', ')}`)
  // The strings, then the settings that are no string.
  return {
    ...strings,
    revalidate: revalidate === undefined ? undefined : Number(revalidate),
    failOnError,
    buildBrandReviews,
    replicaLanguages: languages === undefined ? undefined : [...new Set(languages as Language[])],
    client: clientOptionsOf(read),
  } as VerifiedReviewsEnvironment
}

/**
 * The credential variables that `environment` lacks, by name (`VERIFIED_REVIEWS_CLIENT_ID`,
 * `VERIFIED_REVIEWS_CLIENT_SECRET`); empty when both are set.
 */
export function missingCredentials(environment: VerifiedReviewsEnvironment): string[] {
  return (['clientId', 'clientSecret'] as const)
    .filter((key) => environment[key] === undefined)
    .map((key) => ENVIRONMENT_VARIABLES[key])
}

/**
 * The account a replica of reviews belongs to, as the data cache's keys name it: the client id at the
 * API's origin (never the secret). A replica is kept under a digest of it, so that a site moved to
 * another account (or from the sandbox to production) never reads the reviews of the first, and several
 * accounts can share one store.
 */
export function replicaAccount(env: Pick<VerifiedReviewsEnvironment, 'clientId' | 'origin'>): string {
  return `${env.clientId ?? ''}@${env.origin ?? ''}`
}
