import { rememberSecret } from '../base/redact.ts'
import { type HttpSettings, type Service, send } from './http.ts'
import { invalidAnswer } from './json-body.ts'
import type { AccessToken } from './token-cache.ts'

/** Where and how to ask for a token of one audience. */
export interface TokenRequest {
  service: Service
  url: string
  clientId: string
  clientSecret: string
  /** The audience-specific form fields: `audience=verified-reviews` or `scope=openid`. */
  form: Record<string, string>
}

/** `value` as `application/x-www-form-urlencoded` writes it (a space as `+`, `é` as `%C3%A9`). */
function formEncoded(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice('v='.length)
}

/**
 * `Basic` credentials of the client credentials flow. RFC 6749 §2.3.1 form-encodes the id and the
 * secret before joining them with a colon, and the token servers decode them: a secret holding `+`,
 * `%`, `:` or a space sent as it is would be read as another secret. Form-encoded, they are ASCII,
 * which `btoa` takes as it is.
 */
export function basicCredentials(clientId: string, clientSecret: string): string {
  return `Basic ${btoa(`${formEncoded(clientId)}:${formEncoded(clientSecret)}`)}`
}

/**
 * Gets an access token with the OAuth 2.0 client credentials flow. Refused credentials throw an
 * `AuthenticationError` (401) or `BadRequestError` (400) whose `source` is the token endpoint; a
 * token server that is down is retried like any API, then throws its connection or server error.
 */
export async function requestToken(settings: HttpSettings, request: TokenRequest): Promise<AccessToken> {
  const issuedAt = Date.now()
  const source = request.service.source
  rememberSecret(request.clientSecret)
  const answer = await send(settings, {
    service: request.service,
    method: 'POST',
    url: request.url,
    headers: {
      authorization: basicCredentials(request.clientId, request.clientSecret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', ...request.form }).toString(),
  })
  let body: unknown
  try {
    body = JSON.parse(answer.text)
  } catch (cause) {
    throw invalidAnswer(answer, source, 'The token endpoint answered something that is not JSON.', cause)
  }
  const { access_token: value, expires_in: expiresIn } = (body ?? {}) as Record<string, unknown>
  if (typeof value === 'string') rememberSecret(value)
  if (typeof value !== 'string' || value === '') {
    throw invalidAnswer(answer, source, 'The token endpoint answered without an access_token.')
  }
  const seconds = typeof expiresIn === 'number' ? expiresIn : Number(expiresIn)
  const expiresAt = Number.isFinite(seconds) && seconds > 0 ? issuedAt + seconds * 1000 : undefined
  return { value, issuedAt, expiresAt }
}
