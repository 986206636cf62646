/**
 * Every error the client throws is a {@link VerifiedReviewsError}. Answers of the APIs with a
 * 4xx/5xx status are {@link APIError}s, one subclass per status; failures to get an answer at all
 * are {@link APIConnectionError}s; bad input caught before any request is a {@link ValidationError}.
 */

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
    const detail =
      member(init.body, 'message') ??
      member(init.body, 'error_description') ??
      (typeof init.body === 'string' && init.body.length > 0 ? init.body.slice(0, 200) : undefined)
    super(init.message ?? `${init.status} from ${init.source}${detail === undefined ? '' : `: ${detail}`}`)
    this.status = init.status
    this.headers = init.headers
    this.body = init.body
    this.code = member(init.body, 'error')
    this.field = member(init.body, 'field')
    this.url = init.url
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

/** 5xx: the service failed. */
export class InternalServerError extends APIError {
  override name = 'InternalServerError'
}

/** No answer could be read: the connection failed or the body was cut short. */
export class APIConnectionError extends VerifiedReviewsError {
  override name = 'APIConnectionError'
  /** The address that was requested. */
  readonly url: string
  /** Which service was called. */
  readonly source: ErrorSource

  constructor(message: string, init: { url: string; source: ErrorSource; cause?: unknown }) {
    super(message, { cause: init.cause })
    this.url = init.url
    this.source = init.source
  }
}

/** No complete answer came within the `timeout`. */
export class APITimeoutError extends APIConnectionError {
  override name = 'APITimeoutError'
}

/** The caller's `signal` aborted the request. */
export class APIUserAbortError extends VerifiedReviewsError {
  override name = 'APIUserAbortError'
}

/** One problem found in the input. */
export interface ValidationIssue {
  /** The parameter at fault, as a path: `limit`, `sort`, `events[3].purchase_reference`. */
  field: string
  message: string
  /** Index of the purchase event at fault, for `purchaseEvents.submit`. */
  index?: number
}

/** Input the API would refuse, caught before any request was sent. */
export class ValidationError extends VerifiedReviewsError {
  override name = 'ValidationError'
  /** The first parameter at fault. */
  readonly field: string
  /** Every problem found (at least one). */
  readonly issues: readonly ValidationIssue[]

  constructor(issues: readonly [ValidationIssue, ...ValidationIssue[]]) {
    const [first] = issues
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''
    super(`${first.field}: ${first.message}${more}`)
    this.field = first.field
    this.issues = issues
  }
}

/** A successful answer the client cannot read (not JSON, or not the shape the API documents). */
export class InvalidResponseError extends VerifiedReviewsError {
  override name = 'InvalidResponseError'
  readonly status: number
  readonly headers: Headers
  /** The raw body. */
  readonly body: string
  readonly url: string
  readonly source: ErrorSource

  constructor(
    message: string,
    init: {
      status: number
      headers: Headers
      body: string
      url: string
      source: ErrorSource
      cause?: unknown
    },
  ) {
    super(message, { cause: init.cause })
    this.status = init.status
    this.headers = init.headers
    this.body = init.body
    this.url = init.url
    this.source = init.source
  }
}
