/**
 * Every error the client throws is a {@link VerifiedReviewsError}: {@link APIError}s (one subclass per
 * 4xx/5xx status), {@link APIConnectionError}s (no answer), {@link ValidationError}s (bad input caught
 * before any request). No error holds a credential: every constructor redacts its message, `url`,
 * `body`, `headers` and `cause` (`internal/base/redact.ts`).
 */
import { connectionCode } from './connection-code.ts'
import { redactBody, redactCause, redactHeaders, redactText, redactUrl } from './redact.ts'

/** Which service an error came from; `*-token` are the OAuth token endpoints. */
export type ErrorSource =
  | 'published'
  | 'published-token'
  | 'purchase-events'
  | 'purchase-events-token'
  | 'legacy'
  | 'genesis'

/** The root of every error this package throws. */
export class VerifiedReviewsError extends Error {
  override name = 'VerifiedReviewsError'

  /** `message` and `options.cause` are stored with their credentials redacted. */
  constructor(message?: string, options?: ErrorOptions) {
    const safe = options !== undefined && 'cause' in options ? { cause: redactCause(options.cause) } : options
    super(message === undefined ? undefined : redactText(message), safe)
  }
}

/** What an API error is made from: the answer of a request that did not succeed. */
export interface APIErrorInit {
  status: number
  headers: Headers
  /** The body, parsed as JSON when it is JSON, else the raw text. */
  body: unknown
  url: string
  source: ErrorSource
  /** Overrides the message derived from the body. */
  message?: string
}

function member(body: unknown, key: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const value = (body as Record<string, unknown>)[key]
  return typeof value === 'string' ? value : undefined
}

/** An API answered with a 4xx or 5xx status. */
export class APIError extends VerifiedReviewsError {
  override name = 'APIError'
  /** HTTP status of the answer. */
  readonly status: number
  /** Headers of the answer. */
  readonly headers: Headers
  /** The body, parsed as JSON when it is JSON, else the raw text. */
  readonly body: unknown
  /** The error code of a JSON body (`error`), such as `invalid_parameter` or `invalid_client`. */
  readonly code: string | undefined
  /** The parameter the API names as the cause (`field` of a JSON body), when it names one. */
  readonly field: string | undefined
  /** The address that was requested. */
  readonly url: string
  /** Which service answered. */
  readonly source: ErrorSource

  constructor(init: APIErrorInit) {
    const body = redactBody(init.body)
    const detail =
      member(body, 'message') ??
      member(body, 'error_description') ??
      (typeof body === 'string' && body.length > 0 ? body.slice(0, 200) : undefined)
    super(init.message ?? `${init.status} from ${init.source}${detail === undefined ? '' : `: ${detail}`}`)
    this.status = init.status
    this.headers = redactHeaders(init.headers)
    this.body = body
    this.code = member(body, 'error')
    this.field = member(body, 'field')
    this.url = redactUrl(init.url)
    this.source = init.source
  }
}

/** 400: an invalid parameter, an invalid cursor, a cursor used with another limit, or an invalid body. */
export class BadRequestError extends APIError {
  override name = 'BadRequestError'
}

/**
 * 401: a token endpoint refused the credentials (`source` ends with `-token`, `code` is usually
 * `invalid_client`), or an API refused the token twice in a row.
 */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError'
}

/** 403: the credentials do not open this resource (for example another website's purchase events). */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError'
}

/** 404: no such resource (for example an unknown website in the legacy API). */
export class NotFoundError extends APIError {
  override name = 'NotFoundError'
}

/** 406: the structured data operation refused the `Accept` value. */
export class NotAcceptableError extends APIError {
  override name = 'NotAcceptableError'
}

/** 429, or a rate budget the client gave up waiting for. */
export class RateLimitError extends APIError {
  override name = 'RateLimitError'
  /** Seconds the API asked to wait (`Retry-After`, else `RateLimit-Reset`), when it said. */
  readonly retryAfter: number | undefined

  constructor(init: APIErrorInit & { retryAfter?: number | undefined }) {
    super(init)
    this.retryAfter = init.retryAfter
  }
}

/**
 * A visitor-driven request (the `visitor` request option, as the reviews endpoint sends its calls)
 * refused before it was sent, because visitor-driven requests already took their share of the client's
 * rate budget (`visitorShare`). Thrown at once and never retried, so that a public route answers at once
 * (a 503) rather than holding a visitor in a queue; `retryAfter` says in how many seconds one fits again.
 * Its `status` is 429, as for the API's own refusals.
 */
export class RateShareError extends RateLimitError {
  override name = 'RateShareError'
}

/** 5xx: the service failed. */
export class InternalServerError extends APIError {
  override name = 'InternalServerError'
}

/** No answer could be read: the connection failed or the body was cut short. */
export class APIConnectionError extends VerifiedReviewsError {
  override name = 'APIConnectionError'
  /** The address that was requested (credentials redacted). */
  readonly url: string
  /** Which service was called. */
  readonly source: ErrorSource
  /**
   * The code of the failure, when its cause carries one: `ECONNREFUSED`, `ENOTFOUND`, `ETIMEDOUT`,
   * `UND_ERR_SOCKET` (a connection closed mid-answer)…
   */
  readonly code: string | undefined

  constructor(message: string, init: { url: string; source: ErrorSource; cause?: unknown }) {
    super(message, { cause: init.cause })
    this.url = redactUrl(init.url)
    this.source = init.source
    this.code = connectionCode(init.cause)
  }
}

/** What an {@link APITimeoutError} is made from. */
export interface APITimeoutErrorInit {
  url: string
  source: ErrorSource
  cause?: unknown
  /**
   * The limit that ran out: `timeout` (one attempt, retried) or `totalTimeout` (the whole request
   * with its token, waits and retries; never retried).
   * @default 'timeout'
   */
  limit?: 'timeout' | 'totalTimeout'
  /** Milliseconds of that limit. */
  timeout?: number
  /** Attempts sent when it ran out. */
  attempts?: number
}

/**
 * No complete answer came in time: within the `timeout` of one attempt (after the retries), or
 * within the `totalTimeout` of the whole request (`limit` says which).
 */
export class APITimeoutError extends APIConnectionError {
  override name = 'APITimeoutError'
  /** `timeout`: one attempt was too slow (every attempt, once retries are spent). `totalTimeout`: the whole request ran out of time. */
  readonly limit: 'timeout' | 'totalTimeout'
  /** Milliseconds of the limit that ran out, when known. */
  readonly timeout: number | undefined
  /** Attempts sent for this request when the limit ran out, when known. */
  readonly attempts: number | undefined

  constructor(message: string, init: APITimeoutErrorInit) {
    super(message, init)
    this.limit = init.limit ?? 'timeout'
    this.timeout = init.timeout
    this.attempts = init.attempts
  }
}

/** The caller's `signal` aborted the request. */
export class APIUserAbortError extends VerifiedReviewsError {
  override name = 'APIUserAbortError'
}

/** One problem found in the input. */
export interface ValidationIssue {
  /** The parameter at fault, as a path: `limit`, `sort`, `events[3].purchase_reference`. */
  field: string
  /** What is wrong, in English, without the field's name (`must be an email address`). */
  message: string
  /** Index of the purchase event at fault, for `purchaseEvents.submit`. */
  index?: number
  /**
   * What is wrong, for a problem a shopper can cause by what they type in a form (a missing or
   * malformed value): `fieldErrorIn` of `@verified-reviews/core/i18n` says it in their language.
   * Absent for the other problems, which only the code can cause and which stay in English.
   */
  code?: ValidationIssueCode
}

/**
 * A problem a shopper can cause by what they type: `required` (empty), `email` (no e-mail address),
 * `date` (no `YYYY-MM-DD` date), `number` (no number), `non-negative-number` (no number, 0 or more).
 */
export type ValidationIssueCode = 'required' | 'email' | 'date' | 'number' | 'non-negative-number'

/** Input the API would refuse, caught before any request was sent. */
export class ValidationError extends VerifiedReviewsError {
  override name = 'ValidationError'
  /** The first parameter at fault. */
  readonly field: string
  /** Every problem found (at least one). */
  readonly issues: readonly ValidationIssue[]

  constructor(given: readonly [ValidationIssue, ...ValidationIssue[]]) {
    const issues = given.map((issue) => ({ ...issue, message: redactText(issue.message) })) as [
      ValidationIssue,
      ...ValidationIssue[],
    ]
    const [first] = issues
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''
    super(`${first.field}: ${first.message}${more}`)
    this.field = first.field
    this.issues = issues
  }
}

/**
 * An answer the client cannot read: a successful one that is not JSON or not the shape the API
 * documents, or one larger than `maxResponseBytes` ({@link ResponseTooLargeError}).
 */
export class InvalidResponseError extends VerifiedReviewsError {
  override name = 'InvalidResponseError'
  readonly status: number
  readonly headers: Headers
  /** The raw body (credentials redacted). */
  readonly body: string
  /** The address that was requested (credentials redacted). */
  readonly url: string
  readonly source: ErrorSource

  constructor(
    message: string,
    init: Omit<APIErrorInit, 'body' | 'message'> & { body: string; cause?: unknown },
  ) {
    super(message, { cause: init.cause })
    this.status = init.status
    this.headers = redactHeaders(init.headers)
    this.body = redactText(init.body)
    this.url = redactUrl(init.url)
    this.source = init.source
  }
}

/**
 * An answer whose body is larger than `maxResponseBytes`: reading stopped there and the
 * connection was closed. `body` is empty; never retried.
 */
export class ResponseTooLargeError extends InvalidResponseError {
  override name = 'ResponseTooLargeError'
  /** The limit, in bytes (`maxResponseBytes`). */
  readonly maxBytes: number

  constructor(message: string, init: Omit<APIErrorInit, 'body' | 'message'> & { maxBytes: number }) {
    super(message, { ...init, body: '' })
    this.maxBytes = init.maxBytes
  }
}
