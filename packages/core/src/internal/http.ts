import type { FetchOptions, RateLimitEvent, RequestOptions, RetryEvent } from '../client.ts'
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  type ErrorSource,
  InternalServerError,
  NotAcceptableError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseTooLargeError,
  ValidationError,
} from '../errors.ts'
import type { CacheErrorContext } from './cache/read-through.ts'
import { cachedRead } from './cache/read-through.ts'
import type { CacheStore } from './cache/store.ts'
import type { RateBudget } from './rate-budget.ts'
import { redactUrl, rememberSecret } from './redact.ts'
import { backoffDelay, requestedDelay } from './retry-timing.ts'
import type { SharedRateBudget } from './shared-state.ts'
import type { TokenCache } from './token-cache.ts'

/** The fetch function the client calls; `globalThis.fetch` fits. */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>

/** Client-wide settings of the transport, after defaults. */
export interface HttpSettings {
  fetch: Fetch
  timeout: number
  /** Milliseconds one request may take in all (token, budget waits, attempts, retry waits). */
  totalTimeout: number
  maxRetries: number
  maxRetryWait: number
  /** Largest body read, in bytes. */
  maxResponseBytes: number
  signal: AbortSignal | undefined
  fetchOptions: FetchOptions | undefined
  headers: Record<string, string> | undefined
  onRetry: ((event: RetryEvent) => unknown) | undefined
  onRateLimit: ((event: RateLimitEvent) => unknown) | undefined
  /** Where GET answers are cached, with the client's defaults; undefined when nothing is cached. */
  cache: CacheSettings | undefined
}

/** The client's cache, after defaults. */
export interface CacheSettings {
  store: CacheStore
  ttl: number
  staleWhileRevalidate: number
  staleIfError: number
  tags: readonly string[]
  onError: ((error: unknown, context: CacheErrorContext) => void) | undefined
  /** Keeps the answers of one account apart from another's in a shared store. */
  keyPrefix: string
}

/** One API as the transport sees it: its name, its rate budget and its token, when it has them. */
export interface Service {
  source: ErrorSource
  budget?: RateBudget
  /** A budget shared with other instances (the `rateBudget` option), and this API's key in it. */
  sharedBudget?: { budget: SharedRateBudget; key: string }
  token?: TokenCache
}

/** A request to send. */
export interface Outgoing {
  service: Service
  method: 'GET' | 'POST'
  url: string
  headers?: Record<string, string>
  body?: string
}

/** A successful answer, its body read in full. */
export interface Incoming {
  status: number
  headers: Headers
  url: string
  text: string
}

const errorClasses: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  406: NotAcceptableError,
}

/** The body of an error answer: parsed when it is JSON, the raw text otherwise. */
export function readErrorBody(text: string, headers: Headers): unknown {
  const type = headers.get('content-type') ?? ''
  const looksJson = /^\s*[[{]/.test(text)
  if (type.includes('json') || looksJson) {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  return text
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
    const delay = requestedDelay(answer.headers)
    return new RateLimitError({ ...init, retryAfter: delay === undefined ? undefined : delay / 1000 })
  }
  if (answer.status >= 500) return new InternalServerError(init)
  const ErrorClass = errorClasses[answer.status] ?? APIError
  return new ErrorClass(init)
}

function abortError(): APIUserAbortError {
  return new APIUserAbortError('The request was aborted.')
}

/** Waits `ms`, or rejects with {@link APIUserAbortError} as soon as one of the signals aborts. */
export function sleep(ms: number, signals: readonly (AbortSignal | undefined)[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const live = signals.filter((signal): signal is AbortSignal => signal !== undefined)
    if (live.some((signal) => signal.aborted)) return reject(abortError())
    const onAbort = () => {
      clearTimeout(timer)
      reject(abortError())
    }
    const timer = setTimeout(() => {
      for (const signal of live) signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    for (const signal of live) signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** Settles with `promise`, or rejects with {@link APIUserAbortError} as soon as a signal aborts. */
export function abortable<T>(promise: Promise<T>, signals: readonly (AbortSignal | undefined)[]): Promise<T> {
  const live = signals.filter((signal): signal is AbortSignal => signal !== undefined)
  if (live.length === 0) return promise
  return new Promise((resolve, reject) => {
    if (live.some((signal) => signal.aborted)) return reject(abortError())
    const onAbort = () => reject(abortError())
    for (const signal of live) signal.addEventListener('abort', onAbort, { once: true })
    const done = () => {
      for (const signal of live) signal.removeEventListener('abort', onAbort)
    }
    promise.then(
      (value) => {
        done()
        resolve(value)
      },
      (error: unknown) => {
        done()
        reject(error)
      },
    )
  })
}

/** Timers beyond this many milliseconds fire at once (setTimeout's 32-bit limit): no timer is set. */
const MAX_TIMER_MS = 2_147_483_647

/**
 * The time a request has in all (`totalTimeout`), from its start: the token, the waits for the
 * rate budget, every attempt and every wait between attempts. A wait that would end past it is
 * not started; the request fails at once with an {@link APITimeoutError} whose `limit` is
 * `totalTimeout`.
 */
class Deadline {
  readonly #at: number
  readonly total: number
  readonly #out: Outgoing
  /** Attempts sent so far. */
  attempts = 0
  /** The last failure of an attempt, the cause of the deadline error when time runs out later. */
  lastError: unknown

  constructor(total: number, out: Outgoing) {
    this.total = total
    this.#at = Date.now() + total
    this.#out = out
    if (!(total > 0)) {
      throw new ValidationError([
        { field: 'totalTimeout', message: 'must be a positive number of milliseconds' },
      ])
    }
  }

  /** Milliseconds left (Infinity when there is no deadline). */
  remaining(): number {
    return this.#at - Date.now()
  }

  /** Whether a wait of `delay` ms ends before the deadline, leaving time for the attempt after it. */
  allows(delay: number): boolean {
    return delay < this.remaining()
  }

  /** The error of a request out of time; `cause` is the failure that would have been retried. */
  error(cause: unknown = this.lastError, waiting?: number): APITimeoutError {
    const source = this.#out.service.source
    const made = `${this.attempts} attempt${this.attempts === 1 ? '' : 's'} made`
    const wait = waiting === undefined ? '' : `; waiting ${Math.ceil(waiting)} ms more would pass it`
    const last = cause instanceof Error ? `; last error: ${cause.message}` : ''
    return new APITimeoutError(
      `The request to ${source} did not finish within its totalTimeout of ${this.total} ms (${made}${wait})${last}`,
      {
        url: this.#out.url,
        source,
        cause,
        limit: 'totalTimeout',
        timeout: this.total,
        attempts: this.attempts,
      },
    )
  }

  /** Throws the deadline error when no time is left. */
  check(): void {
    if (this.remaining() <= 0) throw this.error()
  }

  /** Settles with `promise`, or rejects with the deadline error when time runs out first. */
  race<T>(promise: Promise<T>): Promise<T> {
    const left = this.remaining()
    if (left <= 0) return Promise.reject(this.error())
    if (left > MAX_TIMER_MS) return promise
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(this.error()), left)
      promise.then(
        (value) => {
          clearTimeout(timer)
          resolve(value)
        },
        (error: unknown) => {
          clearTimeout(timer)
          reject(error)
        },
      )
    })
  }
}

function isDeadlineError(error: unknown): error is APITimeoutError {
  return error instanceof APITimeoutError && error.limit === 'totalTimeout'
}

interface Attempt {
  settings: HttpSettings
  out: Outgoing
  options: RequestOptions
  token: string | undefined
  deadline: Deadline
}

/**
 * Reads a body as text, counting the bytes as they arrive; past `maxBytes` it stops reading,
 * cancels the stream and throws `tooLarge()`. Uses the web streams of `Response.body`, as every
 * runtime with fetch has them.
 */
async function readBody(response: Response, maxBytes: number, tooLarge: () => Error): Promise<string> {
  const declared = response.headers.get('content-length')
  if (declared !== null && response.headers.get('content-encoding') === null && Number(declared) > maxBytes) {
    response.body?.cancel().catch(() => undefined)
    throw tooLarge()
  }
  const body = response.body as ReadableStream<Uint8Array> | null | undefined
  if (body === null || body === undefined || typeof body.getReader !== 'function') {
    // A fetch whose answers carry no stream (some mocks): read it whole, then measure.
    const text = await response.text()
    if (new TextEncoder().encode(text).byteLength > maxBytes) throw tooLarge()
    return text
  }
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let size = 0
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      reader.cancel().catch(() => undefined)
      throw tooLarge()
    }
    text += decoder.decode(value, { stream: true })
  }
  return text + decoder.decode()
}

/** Sends once: connect, then read the whole body, all within the timeout and the deadline. */
async function sendOnce({ settings, out, options, token, deadline }: Attempt): Promise<Incoming> {
  const userSignals = [options.signal, settings.signal]
  if (userSignals.some((signal) => signal?.aborted)) throw abortError()
  deadline.check()
  const attemptTimeout = options.timeout ?? settings.timeout
  const left = deadline.remaining()
  const byDeadline = left < attemptTimeout
  const controller = new AbortController()
  let timedOut = false
  const limit = Math.min(attemptTimeout, left)
  const timer =
    limit > MAX_TIMER_MS
      ? undefined
      : setTimeout(() => {
          timedOut = true
          controller.abort()
        }, limit)
  const onAbort = () => controller.abort()
  for (const signal of userSignals) signal?.addEventListener('abort', onAbort, { once: true })
  const url = redactUrl(out.url)
  const fail = (error: unknown, what: string) => {
    if (userSignals.some((signal) => signal?.aborted)) return abortError()
    if (error instanceof ResponseTooLargeError) return error
    if (timedOut && byDeadline) return deadline.error()
    const init = { url: out.url, source: out.service.source, cause: error }
    if (timedOut) {
      return new APITimeoutError(
        `No complete answer from ${out.service.source} within the timeout of ${attemptTimeout} ms (attempt ${deadline.attempts}).`,
        { ...init, timeout: attemptTimeout, attempts: deadline.attempts },
      )
    }
    const reason = error instanceof Error ? `: ${error.message}` : ''
    return new APIConnectionError(`${what} ${out.service.source} failed${reason}`, init)
  }
  try {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...settings.headers,
      ...options.headers,
      ...out.headers,
    }
    if (token !== undefined) {
      rememberSecret(token)
      headers.authorization = `Bearer ${token}`
    }
    const init: RequestInit = {
      ...settings.fetchOptions,
      ...options.fetchOptions,
      method: out.method,
      headers,
      signal: controller.signal,
    }
    if (out.body !== undefined) init.body = out.body
    let response: Response
    deadline.attempts++
    try {
      response = await settings.fetch(out.url, init)
    } catch (error) {
      throw fail(error, 'Connecting to')
    }
    const maxBytes = settings.maxResponseBytes
    const tooLarge = () => {
      controller.abort()
      return new ResponseTooLargeError(
        `The answer of ${out.service.source} to ${out.method} ${url} is larger than maxResponseBytes (${maxBytes} bytes); it was not read further.`,
        {
          status: response.status,
          headers: response.headers,
          url: out.url,
          source: out.service.source,
          maxBytes,
        },
      )
    }
    let text: string
    try {
      text = await readBody(response, maxBytes, tooLarge)
    } catch (error) {
      // A body cut short (the connection closed before Content-Length was reached) lands here.
      throw fail(error, 'Reading the answer of')
    }
    // The address an answer keeps (in errors about it, in a cache store) holds no credential.
    return { status: response.status, headers: response.headers, url, text }
  } finally {
    clearTimeout(timer)
    for (const signal of userSignals) signal?.removeEventListener('abort', onAbort)
  }
}

function isRetryable(error: unknown): error is APIError | APIConnectionError {
  if (isDeadlineError(error)) return false
  if (error instanceof APIConnectionError) return true
  return error instanceof APIError && (error.status === 429 || error.status >= 500)
}

/** Asks a hook whether to go on; only an explicit `false` gives up. */
async function proceed<E>(hook: ((event: E) => unknown) | undefined, event: E): Promise<boolean> {
  if (hook === undefined) return true
  return (await hook(event)) !== false
}

/**
 * Waits until the service's rate budgets let one more request go, unless the caller gives up: the
 * budget shared with other instances first (when there is one), then the client's own.
 */
async function takeBudget(
  settings: HttpSettings,
  out: Outgoing,
  options: RequestOptions,
  attempt: number,
  deadline: Deadline,
) {
  const shared = out.service.sharedBudget
  if (shared !== undefined) {
    await waitForBudget(settings, out, options, attempt, deadline, async () => {
      try {
        const delay = await deadline.race(shared.budget.reserve(shared.key))
        return Number.isFinite(delay) && delay > 0 ? delay : 0
      } catch (error) {
        if (isDeadlineError(error)) throw error
        // A shared budget that fails (its store is down) is left aside: the client's own one decides.
        return 0
      }
    })
  }
  const budget = out.service.budget
  if (budget !== undefined)
    await waitForBudget(settings, out, options, attempt, deadline, () => budget.reserve())
}

/** Tells the shared budget the answer of a request it let go; never waited for, never failing. */
function settleShared(out: Outgoing, answer: Incoming): void {
  const shared = out.service.sharedBudget
  if (shared === undefined) return
  shared.budget.settle(shared.key, { status: answer.status, headers: answer.headers }).catch(() => {})
}

async function waitForBudget(
  settings: HttpSettings,
  out: Outgoing,
  options: RequestOptions,
  attempt: number,
  deadline: Deadline,
  reserve: () => number | Promise<number>,
) {
  const signals = [options.signal, settings.signal]
  for (;;) {
    const delay = await reserve()
    if (delay === 0) return
    const giveUp = () =>
      new RateLimitError({
        status: 429,
        headers: out.service.budget?.headers ?? new Headers(),
        body: undefined,
        url: out.url,
        source: out.service.source,
        retryAfter: delay / 1000,
        message: `The rate budget of ${out.service.source} is spent for ${Math.ceil(delay / 1000)} s; gave up waiting.`,
      })
    if (delay > settings.maxRetryWait) throw giveUp()
    if (!deadline.allows(delay)) throw deadline.error(giveUp(), delay)
    const event: RateLimitEvent = {
      reason: 'budget',
      delay,
      attempt,
      method: out.method,
      url: redactUrl(out.url),
    }
    if (!(await proceed(settings.onRateLimit, event))) throw giveUp()
    await sleep(delay, signals)
  }
}

/** An answer as a cache store keeps it (JSON, so headers become pairs). */
interface StoredAnswer {
  status: number
  headers: [string, string][]
  url: string
  text: string
}

/**
 * Sends a GET through the client's cache when it has one and the call does not opt out: a fresh
 * answer comes from the store, a missing one is sent for and stored. Other requests go straight out.
 */
export async function send(
  settings: HttpSettings,
  out: Outgoing,
  options: RequestOptions = {},
): Promise<Incoming> {
  const cache = settings.cache
  if (cache === undefined || out.method !== 'GET' || options.cache === false)
    return sendLive(settings, out, options)
  const own = options.cache ?? {}
  const url = new URL(out.url)
  // The Genesis token changes daily and derives from a secret: it has no place in a cache key.
  url.searchParams.delete('token')
  const key = `${cache.keyPrefix}${out.service.source}:${url.href}`
  const tags = [...cache.tags, ...(own.tags ?? [])]
  const stored = await cachedRead<StoredAnswer>(
    cache.store,
    key,
    async () => {
      const answer = await sendLive(settings, out, options)
      return { status: answer.status, headers: [...answer.headers], url: answer.url, text: answer.text }
    },
    {
      ttl: own.ttl ?? cache.ttl,
      staleWhileRevalidate: own.staleWhileRevalidate ?? cache.staleWhileRevalidate,
      staleIfError: own.staleIfError ?? cache.staleIfError,
      ...(tags.length > 0 ? { tags } : {}),
      ...(cache.onError === undefined ? {} : { onError: cache.onError }),
    },
  )
  return { status: stored.status, headers: new Headers(stored.headers), url: stored.url, text: stored.text }
}

/**
 * Sends a request with the client's resilience: waits for the rate budget, attaches the token,
 * retries 429, 5xx, timeouts, connection failures and cut-short bodies with backoff (honouring
 * `Retry-After`), and answers a 401 by dropping the token and trying once more with a new one.
 * Resolves with a 2xx answer; throws a typed error otherwise.
 */
async function sendLive(settings: HttpSettings, out: Outgoing, options: RequestOptions): Promise<Incoming> {
  const maxRetries = options.maxRetries ?? settings.maxRetries
  const signals = [options.signal, settings.signal]
  const deadline = new Deadline(options.totalTimeout ?? settings.totalTimeout, out)
  const url = redactUrl(out.url)
  let retries = 0
  let refreshedToken = false
  for (;;) {
    let token: string | undefined
    // The token request itself goes on for the other callers that share it; this one stops waiting.
    if (out.service.token !== undefined)
      token = await abortable(deadline.race(out.service.token.get()), signals)
    await takeBudget(settings, out, options, retries, deadline)
    let error: unknown
    try {
      const answer = await sendOnce({ settings, out, options, token, deadline })
      out.service.budget?.settle(answer)
      settleShared(out, answer)
      if (answer.status >= 200 && answer.status < 300) return answer
      if (answer.status === 401 && token !== undefined && !refreshedToken) {
        out.service.token?.invalidate(token)
        refreshedToken = true
        continue
      }
      error = errorFromAnswer(answer, out.service.source)
    } catch (thrown) {
      out.service.budget?.settle()
      error = thrown
    }
    deadline.lastError = error
    if (!isRetryable(error) || retries >= maxRetries) throw error
    const asked = error instanceof APIError ? requestedDelay(error.headers) : undefined
    const delay = asked ?? backoffDelay(retries)
    const event = { delay, attempt: retries + 1, method: out.method, url }
    // A longer wait than maxRetryWait is not made: the error itself is thrown (a RateLimitError
    // with its retryAfter); a wait that would pass the deadline is not started either.
    if (delay > settings.maxRetryWait) throw error
    if (!deadline.allows(delay)) throw deadline.error(error, delay)
    if (error instanceof RateLimitError) {
      if (!(await proceed(settings.onRateLimit, { ...event, reason: 'refused', error } as RateLimitEvent)))
        throw error
    } else {
      if (!(await proceed(settings.onRetry, { ...event, error } as RetryEvent))) throw error
    }
    // The hooks may have taken a while.
    if (!deadline.allows(delay)) throw deadline.error(error, delay)
    await sleep(delay, signals)
    retries++
  }
}
