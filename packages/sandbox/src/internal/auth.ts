import type { Audience, SandboxRequest, SandboxState } from './context.ts'
import { HttpError } from './http-error.ts'

/** The token of an `Authorization: Bearer …` header, if any. */
export function bearerToken(req: SandboxRequest): string | undefined {
  const header = req.headers.authorization
  const match = header ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header) : null
  return match?.[1]
}

/** Throws 401 unless the request carries a live token of `audience`. */
export function requireToken(
  req: SandboxRequest,
  state: SandboxState,
  audience: Audience,
  realm: string,
): void {
  const token = bearerToken(req)
  if (token === undefined) {
    throw new HttpError(401, 'unauthorized', 'a bearer token is required', {
      headers: { 'WWW-Authenticate': `Bearer realm="${realm}"` },
    })
  }
  if (state.tokenAudience(token) !== audience) {
    throw new HttpError(401, 'unauthorized', 'the bearer token is unknown, expired or not for this API', {
      headers: { 'WWW-Authenticate': `Bearer realm="${realm}", error="invalid_token"` },
    })
  }
}
