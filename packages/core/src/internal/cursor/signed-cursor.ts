import type { ReviewRate } from '../../types/published.ts'
import { singleFlight } from '../base/single-flight.ts'
import { check } from '../base/validate.ts'
import type { ReviewSort } from './review-query.ts'

/**
 * The list a cursor pages through and its page size: a signed cursor is good for this list alone. The
 * page URL (`vr_cursor`, `vr_sort`, `vr_rate`) and a request to the reviews endpoint name every part, so
 * a cursor moved to another product, order, rate filter or page size is refused.
 */
export interface CursorScope {
  /** Whose reviews: a product's (`id` is its `product_variation_id`) or the brand's (`id` is the shop key, `''` for the brand). */
  kind: 'product' | 'brand'
  id: string
  sort: ReviewSort
  /** The ratings kept; empty for every rating. Order and repeats do not matter. */
  rates: readonly ReviewRate[]
  limit: number
}

/**
 * Signs the cursors a site hands out (the "More reviews" island, `vr_cursor` links) and opens those that
 * come back, so that only cursors the site issued reach the API. The key is an HMAC-SHA-256 key derived
 * from a secret (Web Crypto: it runs wherever `crypto.subtle` does), never extractable.
 */
export interface CursorSigner {
  /** The signed form of `cursor` (an API cursor or a continuation cursor) for `scope`; undefined for undefined. */
  sign(scope: CursorScope, cursor: string): Promise<string>
  sign(scope: CursorScope, cursor: string | null | undefined): Promise<string | undefined>
  /**
   * The cursor inside `signed` when this signer signed it for this very `scope`; undefined for anything
   * else (unsigned, tampered with, signed for another list or page size, signed with another key).
   */
  open(scope: CursorScope, signed: string | null | undefined): Promise<string | undefined>
}

// `s1.` then the 43 characters of the base64url HMAC, a dot, and the cursor as it was: printable ASCII
// without markup, so a signed cursor still fits a page URL and the endpoint's cursor shape.
const PREFIX = 's1.'
const MAC_LENGTH = 43
const VERSION = 'verified-reviews cursor v1'

/** `bytes` in base64url, without padding. */
export function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

/** The bytes of unpadded base64url text; undefined when it is not. */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'))
    return Uint8Array.from(binary, (char) => char.charCodeAt(0))
  } catch {
    return undefined
  }
}

/** The bytes the HMAC covers: every part of the scope and the cursor, unambiguously. */
function signedBytes(scope: CursorScope, cursor: string): Uint8Array<ArrayBuffer> {
  const rates = [...new Set(scope.rates.map(Number))].sort((a, b) => a - b)
  return new TextEncoder().encode(
    JSON.stringify([VERSION, scope.kind, scope.id, scope.sort, rates, scope.limit, cursor]),
  )
}

function subtle(): SubtleCrypto {
  const crypto = (globalThis as { crypto?: Crypto }).crypto
  if (crypto?.subtle === undefined) {
    throw new Error(
      'Signing review cursors needs Web Crypto (globalThis.crypto.subtle), which this runtime lacks',
    )
  }
  return crypto.subtle
}

/**
 * The HMAC key of the cursors, derived from `secret` by HKDF-SHA-256: the secret itself cannot be read
 * back from the key (it is not extractable either), and the key serves nothing but cursors. For a
 * `cursorSecret`, a random secret of its own: HKDF is cheap, which is fine for a key that is not also
 * a password to something else.
 */
export async function deriveCursorKey(secret: string): Promise<CryptoKey> {
  const crypto = subtle()
  const material = await crypto.importKey('raw', new TextEncoder().encode(secret), 'HKDF', false, [
    'deriveKey',
  ])
  return crypto.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: new TextEncoder().encode('@verified-reviews/core'),
      info: new TextEncoder().encode(VERSION),
    },
    material,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign', 'verify'],
  )
}

/**
 * PBKDF2-SHA-256 iterations of a key derived from a client secret, in rounds: Cloudflare's workerd
 * refuses more than 100,000 in one call (cloudflare/workerd#1346), and 6 rounds make OWASP's 600,000.
 */
export const CLIENT_SECRET_KEY_ROUNDS = 6
export const CLIENT_SECRET_KEY_ITERATIONS = 100_000

/**
 * The HMAC key of the cursors of a client without a `cursorSecret`, derived from its client secret by
 * PBKDF2-SHA-256 (600,000 iterations, salted with the client id). Every signed cursor a site hands out
 * is a value of this key's HMAC: with a cheap derivation (HKDF, as before issue 19) one public cursor
 * let anyone test guesses of the client secret offline, about 4,000 a second on one core; now each
 * guess costs as much as a password hash (some 100 ms). Derived once per process and client (see
 * {@link clientSecretCursorKey}).
 */
export async function deriveClientSecretCursorKey(
  clientId: string | undefined,
  clientSecret: string,
): Promise<CryptoKey> {
  const crypto = subtle()
  const salt = new TextEncoder().encode(`${VERSION} from the client secret\u0000${clientId ?? ''}`)
  let bits: ArrayBuffer = new TextEncoder().encode(clientSecret).buffer as ArrayBuffer
  for (let round = 0; round < CLIENT_SECRET_KEY_ROUNDS; round++) {
    const material = await crypto.importKey('raw', bits, 'PBKDF2', false, ['deriveBits'])
    bits = await crypto.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-256', salt, iterations: CLIENT_SECRET_KEY_ITERATIONS },
      material,
      256,
    )
  }
  return crypto.importKey('raw', bits, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
}

/** Keys derived from client secrets in this process, by client id and secret: a few at most. */
const clientSecretKeys = new Map<string, Promise<CryptoKey>>()
const derivations = singleFlight<string, CryptoKey>('success', clientSecretKeys)
const CLIENT_SECRET_KEYS_KEPT = 16

/**
 * The key of {@link deriveClientSecretCursorKey}, derived once per process for each client id and
 * secret: every client of the same credentials (a framework builds several) shares it, so the cost of
 * the derivation is paid once. A derivation that fails is forgotten, so that the next use tries again.
 */
export function clientSecretCursorKey(
  clientId: string | undefined,
  clientSecret: string,
): Promise<CryptoKey> {
  const id = JSON.stringify([clientId ?? null, clientSecret])
  const key = derivations.run(id, () => deriveClientSecretCursorKey(clientId, clientSecret))
  const oldest = clientSecretKeys.keys().next().value
  if (clientSecretKeys.size > CLIENT_SECRET_KEYS_KEPT && oldest !== undefined) clientSecretKeys.delete(oldest)
  return key
}

/** A {@link CursorSigner} over a key to come; a key that fails rejects every `sign` and `open`. */
export function cursorSignerOf(key: () => Promise<CryptoKey>): CursorSigner {
  let cached: Promise<CryptoKey> | undefined
  const keyOnce = () => {
    cached ??= key()
    return cached
  }
  async function sign(scope: CursorScope, cursor: string): Promise<string>
  async function sign(scope: CursorScope, cursor: string | null | undefined): Promise<string | undefined>
  async function sign(scope: CursorScope, cursor: string | null | undefined): Promise<string | undefined> {
    if (cursor === undefined || cursor === null) return undefined
    const mac = await subtle().sign('HMAC', await keyOnce(), signedBytes(scope, cursor))
    return `${PREFIX}${base64url(new Uint8Array(mac))}.${cursor}`
  }
  return {
    sign,
    async open(scope, signed) {
      const key = await keyOnce()
      if (typeof signed !== 'string' || !signed.startsWith(PREFIX)) return undefined
      const mac = fromBase64url(signed.slice(PREFIX.length, PREFIX.length + MAC_LENGTH))
      const dot = signed.charAt(PREFIX.length + MAC_LENGTH)
      const cursor = signed.slice(PREFIX.length + MAC_LENGTH + 1)
      if (mac === undefined || mac.length !== 32 || dot !== '.' || cursor === '') return undefined
      // verify compares in constant time.
      const valid = await subtle().verify('HMAC', key, mac, signedBytes(scope, cursor))
      return valid ? cursor : undefined
    },
  }
}

/** A {@link CursorSigner} whose key is derived from `secret` (see {@link deriveCursorKey}). */
export function cursorSignerFromSecret(secret: string): CursorSigner {
  return cursorSignerOf(() => deriveCursorKey(secret))
}

/** A signer whose every use rejects with `error`: a client without a secret to derive a key from. */
export function unusableCursorSigner(error: () => Error): CursorSigner {
  return cursorSignerOf(() => Promise.reject(error()))
}

/**
 * What a client made by `createClient` lends the reviews endpoint and the review components, under a
 * registered symbol (so a second copy of the package finds it) and not enumerable: its cursor signer,
 * whose key derives from the client's secret without revealing it. (The share of the rate budget the
 * endpoint may take is the transport's: its calls are `visitor` requests.)
 */
export interface ClientInternals {
  cursorSigner: CursorSigner
}

/** The key under which a client keeps its {@link ClientInternals}. */
export const CLIENT_INTERNALS: unique symbol = Symbol.for('@verified-reviews/core.client-internals')

/** The internals of a client made by `createClient` (through any proxy that passes symbols on), else undefined. */
export function clientInternals(client: unknown): ClientInternals | undefined {
  if ((typeof client !== 'object' && typeof client !== 'function') || client === null) return undefined
  const internals = (client as { [CLIENT_INTERNALS]?: unknown })[CLIENT_INTERNALS]
  if (typeof internals !== 'object' || internals === null) return undefined
  const { cursorSigner } = internals as Partial<ClientInternals>
  return cursorSigner !== undefined ? (internals as ClientInternals) : undefined
}

/**
 * The signer of the cursors of `client`'s reviews: the endpoint and the components that hand out
 * cursors must use the same. Its key derives from `cursorSecret` when given, else from the client's
 * `cursorSecret` option (or `VERIFIED_REVIEWS_CURSOR_SECRET`), else from its client secret and id
 * (see {@link deriveClientSecretCursorKey}).
 *
 * @throws ValidationError naming `cursorSecret` when there is no secret to derive a key from (a client
 * not made by `createClient`, without `cursorSecret`).
 */
export function cursorSigner(client: unknown, cursorSecret?: string): CursorSigner {
  if (cursorSecret !== undefined) {
    const valid = typeof cursorSecret === 'string' && cursorSecret.length >= 16
    check(valid, 'cursorSecret', 'must be a string of at least 16 characters')
    return cursorSignerFromSecret(cursorSecret)
  }
  const internals = clientInternals(client)
  check(
    internals !== undefined,
    'cursorSecret',
    'is required with a client not made by createClient (the key of the signed cursors derives from it)',
  )
  return internals.cursorSigner
}
