import { isHostName, isWildcardAddress } from './admin-guard.ts'
import type { SandboxSettings } from './context.ts'
import { websiteIdFromSeed } from './seed.ts'

/** Options of `createSandbox`. Every one is optional. */
export interface SandboxOptions {
  /**
   * TCP port to listen on; `0` picks a free one.
   * @default 0
   */
  port?: number
  /**
   * Address to listen on. A wildcard (`0.0.0.0`, `::`) makes the sandbox reachable from other
   * machines: `createSandbox` then warns through `logger`.
   * @default '127.0.0.1'
   */
  host?: string
  /**
   * Further host names (or IP addresses) the `/__sandbox/` routes answer on, besides `localhost`,
   * `127.0.0.1`, `[::1]`, the `host` option and the address the sandbox listens on: a request whose
   * `Host` header names another host gets 403 (a DNS-rebinding page reaches the sandbox under its
   * own name). Names without a port; any port is accepted. Example: `['sandbox']` for a container
   * that other containers reach as `http://sandbox:4010`.
   * @default []
   */
  allowedHosts?: readonly string[]
  /**
   * Where the warning goes when `host` is a wildcard address.
   * @default console
   */
  logger?: { warn(message: string): void }
  /**
   * Seed of the generated data: the same seed always gives the same products and reviews.
   * @default 1
   */
  seed?: number
  /**
   * OAuth client id accepted by both token endpoints: any text without control characters. In
   * `Authorization: Basic` it is form-encoded before base64, as RFC 6749 §2.3.1 says.
   * @default 'sandbox-client-id'
   */
  clientId?: string
  /**
   * OAuth client secret accepted by both token endpoints: any text without control characters,
   * form-encoded in `Authorization: Basic` like the id.
   * @default 'sandbox-client-secret'
   */
  clientSecret?: string
  /**
   * Website id (a uuid) of the credentials, used by purchase events, the legacy and Genesis APIs.
   * @default a uuid derived from the seed
   */
  websiteId?: string
  /**
   * Secret key of the Genesis API token (`sha256hex(idWebsite + secret + YYYY-MM-DD)`, of the UTF-8
   * bytes): any text without control characters.
   * @default 'sandbox-genesis-secret'
   */
  genesisSecret?: string
  /**
   * Requests per second per client on the Published API and purchase events; `0` turns the limit off.
   * @default 100
   */
  rateLimit?: number
  /**
   * Lifetime of an access token, in seconds.
   * @default 3600
   */
  tokenTtl?: number
  /**
   * Products in the generated catalogue (`SKU-001` …; with more than 999, as many digits as the count
   * needs: `SKU-00001` … `SKU-10000`), deterministic from the seed. One in ten has no review.
   * @default 60
   */
  products?: number
  /**
   * Product reviews generated over the catalogue, deterministic from the seed: a large catalogue
   * (`products: 10_000, reviews: 100_000`) is generated in seconds and served from indexes.
   * @default 3000
   */
  reviews?: number
}

/** An option with a value the sandbox cannot run with; `option` names it. */
export class SandboxOptionError extends TypeError {
  readonly option: keyof SandboxOptions

  constructor(option: keyof SandboxOptions, message: string) {
    super(`${option} ${message}`)
    this.name = 'SandboxOptionError'
    this.option = option
  }
}

export const DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  seed: 1,
  clientId: 'sandbox-client-id',
  clientSecret: 'sandbox-client-secret',
  genesisSecret: 'sandbox-genesis-secret',
  rateLimit: 100,
  tokenTtl: 3600,
  products: 60,
  reviews: 3000,
  organizationName: 'Maison Sandbox',
} as const

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
// Credentials reach the sandbox form-encoded (RFC 6749 §2.3.1) or hashed as UTF-8, so any text
// survives the trip; control characters do not survive a command line or an environment variable,
// nor a lone surrogate an encoding to UTF-8.
const NOT_TEXT = /[\p{Cc}\p{Cs}]/u

function integer(option: keyof SandboxOptions, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new SandboxOptionError(option, `must be an integer from ${min} to ${max}, not ${String(value)}`)
  }
  return value
}

function credential(option: keyof SandboxOptions, value: unknown): string {
  if (typeof value !== 'string' || value === '' || NOT_TEXT.test(value)) {
    throw new SandboxOptionError(
      option,
      'must be a non-empty string of Unicode text without control characters',
    )
  }
  return value
}

export interface ResolvedOptions {
  host: string
  port: number
  allowedHosts: readonly string[]
  settings: SandboxSettings
}

function hostList(value: unknown): string[] {
  if (!Array.isArray(value)) throw new SandboxOptionError('allowedHosts', 'must be an array of host names')
  return value.map((host: unknown, index) => {
    if (typeof host !== 'string' || !isHostName(host) || isWildcardAddress(host)) {
      throw new SandboxOptionError(
        'allowedHosts',
        `[${index}] must be a host name or an IP address without scheme or port, not ${JSON.stringify(host)}`,
      )
    }
    return host
  })
}

/** Checks the options and fills in the defaults; throws SandboxOptionError naming a bad option. */
export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  const port = integer('port', options.port ?? DEFAULTS.port, 0, 65_535)
  const host = options.host ?? DEFAULTS.host
  if (typeof host !== 'string' || host.trim() === '')
    throw new SandboxOptionError('host', 'must be a non-empty string')
  const allowedHosts = hostList(options.allowedHosts ?? [])
  const seed = integer(
    'seed',
    options.seed ?? DEFAULTS.seed,
    Number.MIN_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER,
  )
  const clientId = credential('clientId', options.clientId ?? DEFAULTS.clientId)
  const clientSecret = credential('clientSecret', options.clientSecret ?? DEFAULTS.clientSecret)
  const genesisSecret = credential('genesisSecret', options.genesisSecret ?? DEFAULTS.genesisSecret)
  const websiteId = options.websiteId ?? websiteIdFromSeed(seed)
  if (typeof websiteId !== 'string' || !UUID.test(websiteId)) {
    throw new SandboxOptionError('websiteId', `must be a uuid, not ${String(websiteId)}`)
  }
  const rateLimit = integer('rateLimit', options.rateLimit ?? DEFAULTS.rateLimit, 0, 1_000_000)
  const tokenTtl = integer('tokenTtl', options.tokenTtl ?? DEFAULTS.tokenTtl, 1, 31_536_000)
  const products = integer('products', options.products ?? DEFAULTS.products, 1, 1_000_000)
  const reviews = integer('reviews', options.reviews ?? DEFAULTS.reviews, 0, 10_000_000)
  return {
    host,
    port,
    allowedHosts,
    settings: {
      seed,
      clientId,
      clientSecret,
      websiteId: websiteId.toLowerCase(),
      genesisSecret,
      rateLimit,
      tokenTtl,
      products,
      reviews,
      organizationName: DEFAULTS.organizationName,
    },
  }
}
