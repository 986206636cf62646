/**
 * The one place where credentials are taken out of what the client shows: error messages, error
 * `url`, `body`, `headers` and `cause`, and the `url` of retry and rate-limit events. Two nets:
 * names (query parameters, form fields, JSON members and headers that hold credentials, `Bearer`
 * and `Basic` credentials, user info in addresses) and values (the secrets and tokens this process
 * has used, wherever they turn up, for example echoed in an upstream error body).
 *
 * Runs on every runtime core runs on: no `node:*`.
 */

/** What replaces a credential. */
export const REDACTED = '[REDACTED]'

// Names compared lower-cased, without `-`, `_`, `.` and brackets (`client_secret`, `clientSecret` and
// `Client-Secret` alike): the whole names first, then the endings.
const SECRET_NAME =
  /^(?:sig|auth|authorization|proxyauthorization|assertion|clientassertion)$|(?:token|secret|signature|password|passwd|apikey|credential|credentials|cookie)$/

/**
 * Whether a query parameter, form field, JSON member or header of this name holds a credential:
 * `token`, `access_token`, `client_secret`, `signature`, `X-Amz-Signature`, `password`, `api_key`,
 * `x-api-key`, `authorization`, `cookie`, `set-cookie`… but not `shop_key` or `cursor`.
 */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name.toLowerCase().replace(/[-_.[\]]/g, ''))
}

// Secret values are only looked for from this length on, so that a short one cannot garble text.
const MIN_SECRET_LENGTH = 8
// The most recently used values are kept; a value is used again at each call, so live ones stay.
const MAX_SECRETS = 128
const secrets = new Set<string>()

/**
 * Records a credential this process uses (client secret, access token, Genesis secret and daily
 * token), so that it is redacted wherever it appears, also where no name gives it away. The last
 * {@link MAX_SECRETS} values used are kept.
 */
export function rememberSecret(value: string | undefined): void {
  if (value === undefined || value.length < MIN_SECRET_LENGTH) return
  secrets.delete(value)
  secrets.add(value)
  if (secrets.size > MAX_SECRETS) {
    const oldest = secrets.values().next().value
    if (oldest !== undefined) secrets.delete(oldest)
  }
}

/** Forgets every remembered value (for tests). */
export function forgetSecrets(): void {
  secrets.clear()
}

function redactValues(text: string): string {
  let result = text
  for (const value of secrets) {
    result = result.replaceAll(value, REDACTED)
    const encoded = encodeURIComponent(value)
    if (encoded !== value) result = result.replaceAll(encoded, REDACTED)
  }
  return result
}

// `Bearer abc…`, `Basic dXNlcjpwYXNz`: the scheme stays, the credentials (8 characters or more) go.
const AUTH_SCHEME = /\b(Bearer|Basic)(\s+)[A-Za-z0-9\-._~+/]{8,}=*/gi
// `name=value` in a query string, a form body or free text.
const PAIR = /([A-Za-z0-9_.\-[\]]+)=([^&\s#"'<>,;]*)/g
// `"name": "value"` in JSON text.
const JSON_MEMBER = /"([A-Za-z0-9_.-]+)"(\s*:\s*)"(?:[^"\\]|\\.)*"/g
// `https://user:password@host`.
const USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+(?::[^/\s@]*)?@/gi

/** `text` with every credential it holds replaced by {@link REDACTED}. */
export function redactText(text: string): string {
  if (text === '') return text
  return redactValues(text)
    .replace(USER_INFO, `$1${REDACTED}@`)
    .replace(AUTH_SCHEME, `$1$2${REDACTED}`)
    .replace(JSON_MEMBER, (whole, name: string, colon: string) =>
      isSecretName(name) ? `"${name}"${colon}"${REDACTED}"` : whole,
    )
    .replace(PAIR, (whole, name: string, value: string) =>
      isSecretName(name) && value !== '' && value !== REDACTED ? `${name}=${REDACTED}` : whole,
    )
}

/** An address with its credentials (secret query parameters, user info, secret values) redacted. */
export const redactUrl: (url: string) => string = redactText

/**
 * A body with its credentials redacted: text through {@link redactText}, JSON values member by
 * member (a member with a secret name loses its value). Returns `body` itself when nothing changed.
 */
export function redactBody(body: unknown, depth = 0): unknown {
  if (typeof body === 'string') return redactText(body)
  if (typeof body !== 'object' || body === null || depth > 20) return body
  if (Array.isArray(body)) {
    const items = body.map((item) => redactBody(item, depth + 1))
    return items.every((item, index) => item === body[index]) ? body : items
  }
  if (Object.getPrototypeOf(body) !== Object.prototype && Object.getPrototypeOf(body) !== null) return body
  let changed = false
  const copy: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(body)) {
    const redacted =
      isSecretName(key) && value !== null && value !== undefined ? REDACTED : redactBody(value, depth + 1)
    if (redacted !== value) changed = true
    copy[key] = redacted
  }
  return changed ? copy : body
}

/** Headers with the values of credential headers (`authorization`, `set-cookie`…) redacted; `headers` itself when none. */
export function redactHeaders(headers: Headers): Headers {
  let copy: Headers | undefined
  for (const [name, value] of headers) {
    const redacted = isSecretName(name) ? REDACTED : redactText(value)
    if (redacted === value) continue
    copy ??= new Headers(headers)
    copy.set(name, redacted)
  }
  return copy ?? headers
}

/**
 * The `cause` of an error with its credentials redacted: an `Error` whose message, stack or own
 * cause hold one is replaced by a copy (same name, code and class prototype) that does not; any
 * other cause is kept as it is.
 */
export function redactCause(cause: unknown, depth = 0): unknown {
  if (!(cause instanceof Error) || depth > 5) return cause
  const message = redactText(cause.message)
  const stack = cause.stack === undefined ? undefined : redactText(cause.stack)
  const inner = 'cause' in cause ? redactCause(cause.cause, depth + 1) : undefined
  if (message === cause.message && stack === cause.stack && (!('cause' in cause) || inner === cause.cause))
    return cause
  const copy = Object.create(Object.getPrototypeOf(cause) as object) as Error & { code?: unknown }
  const define = (key: string, value: unknown) =>
    Object.defineProperty(copy, key, { value, writable: true, configurable: true, enumerable: false })
  define('message', message)
  if (stack !== undefined) define('stack', stack)
  if ('cause' in cause) define('cause', inner)
  define('name', cause.name)
  const code = (cause as { code?: unknown }).code
  if (code !== undefined) define('code', code)
  return copy
}
