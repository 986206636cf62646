import { readEnvironment } from '@verified-reviews/core'
import { jsonAnswer } from './json-answer.ts'
import { LOG_PREFIX } from './log-prefix.ts'

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
}

/**
 * Whether `given` equals one of `secrets`, in a time that tells nothing of how much matched: both
 * sides are hashed first (same length whatever the input), every secret is compared, and the bytes
 * are compared without stopping at the first difference.
 */
export async function matchesSecret(given: string, secrets: readonly string[]): Promise<boolean> {
  const digest = await sha256(given)
  let matched = false
  for (const secret of secrets) {
    const expected = await sha256(secret)
    let difference = 0
    for (let index = 0; index < expected.length; index++) {
      difference |= (expected[index] ?? 0) ^ (digest[index] ?? 0)
    }
    matched = difference === 0 || matched
  }
  return matched
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | null): string | undefined {
  const match = header === null ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)
  return match?.[1]
}

/** The secrets a scheduler may send to a route: its own (else `VERIFIED_REVIEWS_REVALIDATE_SECRET`) and `CRON_SECRET`. */
function schedulerSecrets(secret: string | undefined): string[] {
  const env = readEnvironment(process.env)
  return [secret ?? env.revalidateSecret, env.cronSecret].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  )
}

/**
 * Checks that a call of a scheduled route carries `Authorization: Bearer <secret>` with one of
 * `secrets`: answers the 401 to send, or undefined when the call may go on.
 */
async function refuseUnlessScheduler(
  request: Request,
  secrets: readonly string[],
): Promise<Response | undefined> {
  const token = bearerToken(request.headers.get('authorization'))
  if (token !== undefined && (await matchesSecret(token, secrets))) return undefined
  return jsonAnswer(
    401,
    { error: { message: 'a valid Authorization: Bearer <secret> header is required' } },
    { 'www-authenticate': 'Bearer' },
  )
}

/**
 * The secret check of a scheduled route (`route` names it in the log): answers the 401 to send, or
 * undefined when the call may go on. Logs once, at the first call, when no secret is configured.
 */
export function schedulerCheck(
  route: string,
  secret: string | undefined,
): (request: Request) => Promise<Response | undefined> {
  let warned = false
  return (request) => {
    const secrets = schedulerSecrets(secret)
    if (secrets.length === 0 && !warned) {
      warned = true
      console.error(
        `${LOG_PREFIX} the ${route} refuses every call: set VERIFIED_REVIEWS_REVALIDATE_SECRET or CRON_SECRET.`,
      )
    }
    return refuseUnlessScheduler(request, secrets)
  }
}
