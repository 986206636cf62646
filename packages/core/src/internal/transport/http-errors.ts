import {
  APIError,
  AuthenticationError,
  BadRequestError,
  type ErrorSource,
  InternalServerError,
  NotAcceptableError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '../../errors.ts'
import type { Incoming } from './http-types.ts'
import { requestedDelay } from './retry-timing.ts'

const errorClasses: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  406: NotAcceptableError,
}

/** The body of an error answer: parsed when it is JSON, the raw text otherwise. */
export function readErrorBody(text: string, headers: Headers): unknown {
  if (!(headers.get('content-type') ?? '').includes('json') && !/^\s*[[{]/.test(text)) return text
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** The typed error of an answer with a 4xx/5xx status. */
export function errorFromAnswer(answer: Incoming, source: ErrorSource): APIError {
  const init = {
    status: answer.status,
    headers: answer.headers,
    body: readErrorBody(answer.text, answer.headers),
    url: answer.url,
    source,
  }
  if (answer.status === 429) {
    const delay = requestedDelay(429, answer.headers)
    return new RateLimitError({ ...init, retryAfter: delay === undefined ? undefined : delay / 1000 })
  }
  if (answer.status >= 500) return new InternalServerError(init)
  const ErrorClass = errorClasses[answer.status] ?? APIError
  return new ErrorClass(init)
}
