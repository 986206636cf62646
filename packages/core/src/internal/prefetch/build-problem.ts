import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  ValidationError,
} from '../base/errors.ts'
import { membersOf } from '../base/validate.ts'
import { verifyCredentials } from '../client/verify-credentials.ts'
import type { ClientOptions } from '../settings/client-options.ts'
import { ENVIRONMENT_VARIABLES, processEnvironment, readEnvironment } from '../settings/environment.ts'

/**
 * Why a build has no review data, by what fixes it: `missing`, no credentials are set; `refused`, the
 * token endpoint (or the API) refused the credentials that are set; `unreachable`, no answer came from
 * the API's address; `failed`, an answer came but was an error (a 5xx, a 429, a 400…).
 */
export type BuildProblemKind = 'missing' | 'refused' | 'unreachable' | 'failed'

/** Why a build cannot fetch review data. */
export interface BuildProblem {
  kind: BuildProblemKind
  /**
   * One sentence naming what to fix: the setting (`VERIFIED_REVIEWS_CLIENT_SECRET`) or the address
   * (`http://127.0.0.1:4010`).
   */
  message: string
}

/** How a build log names the settings of the client, where they came from. */
export interface BuildSettingNames {
  /** @default 'VERIFIED_REVIEWS_CLIENT_ID' */
  clientId?: string
  /** @default 'VERIFIED_REVIEWS_CLIENT_SECRET' */
  clientSecret?: string
  /** @default 'VERIFIED_REVIEWS_ORIGIN' */
  origin?: string
}

/** The settings of a build's client that a problem names: its own options over the environment's. */
export interface BuildSettings {
  /** The client's options; what they leave out comes from the environment. @default {} */
  client?: ClientOptions
  /** How the log names each setting. @default the `VERIFIED_REVIEWS_*` variable of each */
  names?: BuildSettingNames
}

const OAUTH_REFUSALS = ['invalid_client', 'unauthorized_client']

/** Whether `error` is a refusal of the credentials: by the token endpoint (401, 403, or an OAuth client error), or a 401 of the API. */
function refused(error: unknown): error is APIError {
  if (error instanceof AuthenticationError) return true
  if (!(error instanceof APIError) || !error.source.endsWith('-token')) return false
  return error.status === 403 || OAUTH_REFUSALS.includes(error.code ?? '')
}

/** The explanation of an error answer: its `error_description` or `message`, after its OAuth code. */
function answerDetail(error: APIError): string {
  const body = membersOf(error.body)
  const text = [body.error_description, body.message].find((value) => typeof value === 'string')
  return [error.code, text].filter((part) => typeof part === 'string' && part !== '').join(': ')
}

/** An address without its query (a token endpoint has none; an API call's would only add noise). */
function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.origin}${parsed.pathname}`
  } catch {
    return url
  }
}

/** The message of the innermost cause of `error` (fetch's `bad port` under its `fetch failed`), if any. */
function deepestCause(error: Error): string | undefined {
  let message: string | undefined
  let current: unknown = error.cause
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    message = current.message
    current = current.cause
  }
  return message
}

/**
 * Why a build cannot fetch review data, from the error of a call (the credential check at its start,
 * a loader, a page), in one sentence that names what to fix: the variable or option of a missing or
 * refused credential, the address that cannot be reached.
 *
 * @example
 * buildProblemOf(error) // { kind: 'refused', message: 'VERIFIED_REVIEWS_CLIENT_ID (shop-1) and VERIFIED_REVIEWS_CLIENT_SECRET were refused: …' }
 */
export function buildProblemOf(error: unknown, settings: BuildSettings = {}): BuildProblem {
  const client = { ...readEnvironment(processEnvironment()).client, ...settings.client }
  const names = { ...ENVIRONMENT_VARIABLES, ...settings.names }
  // A credential the client lacks: its ValidationError names it, where another one names an option.
  if (error instanceof ValidationError && (error.field === 'clientId' || error.field === 'clientSecret')) {
    const missing = (['clientId', 'clientSecret'] as const)
      .filter((key) => client[key] === undefined)
      .map((key) => names[key])
    if (missing.length > 0) {
      return {
        kind: 'missing',
        message: `${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set`,
      }
    }
  }
  if (refused(error)) {
    const by = error.source.endsWith('-token') ? 'the token endpoint' : 'the API at'
    const detail = answerDetail(error)
    return {
      kind: 'refused',
      message:
        `${names.clientId} (${client.clientId ?? '?'}) and ${names.clientSecret} were refused: ${by} ` +
        `${withoutQuery(error.url)} answered ${error.status}${detail === '' ? '' : ` (${detail})`}`,
    }
  }
  if (error instanceof APIConnectionError) {
    let address = error.url
    try {
      address = new URL(error.url).origin
    } catch {
      // Not a URL: named as it is.
    }
    const named = client.origin === undefined ? '' : ` (set in ${names.origin})`
    const why =
      error instanceof APITimeoutError
        ? `no answer within ${error.timeout === undefined ? 'the timeout' : `${error.timeout} ms`}`
        : (error.code ?? deepestCause(error) ?? 'no connection')
    return {
      kind: 'unreachable',
      message: `${address}${named} cannot be reached: ${why} for ${withoutQuery(error.url)}`,
    }
  }
  return { kind: 'failed', message: error instanceof Error ? error.message : String(error) }
}

/**
 * Whether a build stops for `problem`. `failOnError` true stops it for any problem, false for none
 * (the pages are built without reviews); by default it stops when credentials are set but refused or
 * the API cannot be reached, and goes on when no credentials are set or an answer was an error.
 */
export function buildStops(problem: BuildProblem, failOnError: boolean | undefined): boolean {
  if (failOnError !== undefined) return failOnError
  return problem.kind === 'refused' || problem.kind === 'unreachable'
}

/**
 * The build log's sentence for `problem`: what is wrong, what the build does (stops, or builds the
 * pages without reviews) and the `failOnError` setting that does the other.
 */
export function describeBuildProblem(problem: BuildProblem, failOnError: boolean | undefined): string {
  if (buildStops(problem, failOnError)) {
    return failOnError === true
      ? `${problem.message}: the build stops, since failOnError is on.`
      : `${problem.message}: the build stops, since its pages would have no reviews. Fix this, or set ` +
          'failOnError to false (or VERIFIED_REVIEWS_FAIL_ON_ERROR=0) to build them without reviews.'
  }
  return failOnError === false
    ? `${problem.message}: the pages are built without reviews, since failOnError is off.`
    : `${problem.message}: the pages are built without reviews. Set failOnError ` +
        '(or VERIFIED_REVIEWS_FAIL_ON_ERROR=1) to fail the build instead.'
}

/** What the check at the start of a build found. */
export type BuildCheck =
  | { ok: true; line: string }
  | { ok: false; problem: BuildProblem; stops: boolean; line: string }

/**
 * Checks, at the start of a build, that its review data can be fetched: one token request to the
 * Published API's token endpoint, no API call (see `verifyCredentials`). Gives the line the build log
 * says: the origin that accepted the credentials, or the problem and what the build does about it
 * (`stops`: throw, so that the build fails; else build the pages without reviews).
 *
 * @param settings the client's options over the environment, and how the log names them.
 * @param failOnError see {@link buildStops}.
 */
export async function checkBuildCredentials(
  settings: BuildSettings = {},
  failOnError: boolean | undefined = undefined,
): Promise<BuildCheck> {
  try {
    await verifyCredentials({ ...settings.client, maxRetries: 1 })
  } catch (error) {
    const problem = buildProblemOf(error, settings)
    return {
      ok: false,
      problem,
      stops: buildStops(problem, failOnError),
      line: describeBuildProblem(problem, failOnError),
    }
  }
  const origin = { ...readEnvironment(processEnvironment()).client, ...settings.client }.origin
  return {
    ok: true,
    line:
      `credentials accepted${origin === undefined ? '' : ` by ${origin}`}: ` +
      'the review data of the build is fetched once, for every page and worker',
  }
}
