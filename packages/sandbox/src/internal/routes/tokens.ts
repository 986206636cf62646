import type { Audience, Route, SandboxRequest } from '../context.ts'
import { HttpError } from '../http-error.ts'
import type { SandboxStore } from '../state.ts'

function oauthError(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
) {
  return new HttpError(status, error, description, { headers, body: { error_description: description } })
}

/** The form of a token request; a JSON body is not a form. */
function readForm(req: SandboxRequest): URLSearchParams {
  const type = String(req.headers['content-type'] ?? 'application/x-www-form-urlencoded')
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
    throw oauthError(400, 'invalid_request', 'the body must be application/x-www-form-urlencoded')
  }
  return new URLSearchParams(req.body.toString('utf8'))
}

/** One part of `Basic` credentials, form-decoded; undefined when it is not valid form encoding. */
function formDecoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '))
  } catch {
    return undefined
  }
}

/**
 * The client credentials: `Authorization: Basic`, else the form fields `client_id`/`client_secret`.
 * RFC 6749 §2.3.1 form-encodes the id and the secret before joining them with a colon, so the first
 * colon splits them and each part is form-decoded; a part that is not valid form encoding (a bare `%`)
 * is refused rather than read as it is, as a strict authorization server would.
 */
function readCredentials(
  req: SandboxRequest,
  form: URLSearchParams,
): { id: string; secret: string } | undefined {
  const header = req.headers.authorization
  const basic = header ? /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(header) : null
  if (basic) {
    const decoded = Buffer.from(basic[1] as string, 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    if (colon < 0) return undefined
    const id = formDecoded(decoded.slice(0, colon))
    const secret = formDecoded(decoded.slice(colon + 1))
    return id !== undefined && secret !== undefined ? { id, secret } : undefined
  }
  const id = form.get('client_id')
  const secret = form.get('client_secret')
  return id !== null && secret !== null ? { id, secret } : undefined
}

function tokenRoute(
  store: SandboxStore,
  audience: Audience,
  path: RegExp,
  checkTarget: (form: URLSearchParams) => void,
): Route {
  return {
    method: 'POST',
    pattern: path,
    operation: audience === 'published' ? 'token.published' : 'token.purchase-events',
    rateLimited: false,
    handle(req) {
      const form = readForm(req)
      const credentials = readCredentials(req, form)
      const { clientId, clientSecret } = store.settings
      if (!credentials || credentials.id !== clientId || credentials.secret !== clientSecret) {
        throw oauthError(401, 'invalid_client', 'unknown client or wrong secret', {
          'WWW-Authenticate': 'Basic realm="sandbox"',
        })
      }
      if (form.get('grant_type') !== 'client_credentials') {
        throw oauthError(400, 'unsupported_grant_type', 'grant_type must be client_credentials')
      }
      checkTarget(form)
      const { accessToken, expiresIn } = store.issueToken(audience, credentials.id)
      return {
        status: 200,
        headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
        body: { access_token: accessToken, token_type: 'Bearer', expires_in: expiresIn },
      }
    },
  }
}

/** Both OAuth client-credentials endpoints, at the paths of their production addresses. */
export function tokenRoutes(store: SandboxStore): Route[] {
  return [
    tokenRoute(store, 'published', /^\/realms\/skeepers\/protocol\/openid-connect\/token$/, (form) => {
      if (form.get('audience') !== 'verified-reviews') {
        throw oauthError(400, 'invalid_request', 'audience must be verified-reviews')
      }
    }),
    tokenRoute(store, 'purchase-events', /^\/am\/oauth2\/alpha\/access_token$/, (form) => {
      const scopes = (form.get('scope') ?? '').split(' ')
      if (!scopes.includes('openid')) throw oauthError(400, 'invalid_request', 'scope must include openid')
    }),
  ]
}
