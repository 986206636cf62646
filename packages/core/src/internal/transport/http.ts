// The transport, in the order a request meets it: the cache in front (`send`, the entry), the retry
// loop with its rate-budget waits, one attempt, and the deadline of it all.

import type {
  CacheOptions,
  FetchOptions,
  RateLimitEvent,
  RequestOptions,
  RetryEvent,
} from '../../types/request-options.ts'
import { connectionCode } from '../base/connection-code.ts'
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
  RateShareError,
  ResponseTooLargeError,
  ValidationError,
} from '../base/errors.ts'
import { redactUrl, rememberSecret } from '../base/redact.ts'
import type { SharedRateBudget } from '../base/shared-state.ts'
import { cachedRead } from '../cache/read-through.ts'
import { release } from './json-items.ts'
import { DEFAULT_VISITOR_SHARE, type RateBudget, type RateTurn } from './rate-budget.ts'
import { requestedDelay, retryDelay } from './retry-timing.ts'
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
export interface CacheSettings extends Required<Omit<CacheOptions, 'onError'>> {
  onError: CacheOptions['onError'] | undefined
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
  /**
   * Told the headers of a successful answer (2xx) as soon as they arrive, before its body is read: a walk
   * of pages asks for the next one from its `Link` header meanwhile. Called once per attempt that gets
   * such an answer (a retried one may call it again); the body is read once what it returns settles (a
   * request it sent has gone out by then), and what it throws or rejects with is ignored.
   */
  onHeaders?: (headers: Headers) => void | PromiseLike<void>
}

/** A successful answer, its body read in full. */
export interface Incoming {
  status: number
  headers: Headers
  url: string
  text: string
  /** The body's bytes, when it was read as such (`text` is then decoded from them when first read). */
  bytes?: Uint8Array
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
  // Stored as JSON, so headers become pairs.
  const stored = await cachedRead<Omit<Incoming, 'headers' | 'bytes'> & { headers: [string, string][] }>(
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
 * Sends a request with the client's resilience: waits for the rate budget, attaches the token,
 * retries 429, 5xx, timeouts, connection failures and cut-short bodies after the wait `retryDelay`
 * gives (`Retry-After` of a 429 or 503, else backoff), and answers a 401 by dropping the token and
 * trying once more with a new one.
 * Resolves with a 2xx answer; throws a typed error otherwise.
 */
async function sendLive(settings: HttpSettings, out: Outgoing, options: RequestOptions): Promise<Incoming> {
  const maxRetries = options.maxRetries ?? settings.maxRetries
  const signals = [options.signal, settings.signal]
  const deadline = new Deadline(options.totalTimeout ?? settings.totalTimeout, out)
  const url = redactUrl(out.url)
  const { budget, sharedBudget: shared } = out.service
  let retries = 0
  let refreshedToken = false

  // Tells the shared budget how a request it let go ended: its answer, or status 0 when there was none
  // (a failed connection, a timeout, or the request was not sent). Never waited for, never failing.
  const settleShared = (answer?: Incoming) => {
    const result = { status: answer?.status ?? 0, headers: answer?.headers ?? new Headers() }
    shared?.budget.settle(shared.key, result).catch(() => {})
  }
  const visitorShare = options.visitor === true ? (options.visitorShare ?? DEFAULT_VISITOR_SHARE) : undefined
  if (visitorShare !== undefined && !(visitorShare > 0 && visitorShare <= 1)) {
    throw new ValidationError([{ field: 'visitorShare', message: 'must be a number above 0, at most 1' }])
  }
  const giveUp = (delay: number) =>
    new RateLimitError({
      status: 429,
      headers: budget?.headers ?? new Headers(),
      body: undefined,
      url: out.url,
      source: out.service.source,
      retryAfter: delay / 1000,
      message: `The rate budget of ${out.service.source} is spent for ${Math.ceil(delay / 1000)} s; gave up waiting.`,
    })
  // Whether to make a budget wait of `delay` ms: within maxRetryWait and the deadline, and the hook agrees.
  const mayWait = async (delay: number) => {
    if (delay > settings.maxRetryWait) throw giveUp(delay)
    if (!deadline.allows(delay)) throw deadline.error(giveUp(delay), delay)
    const event: RateLimitEvent = { reason: 'budget', delay, attempt: retries, method: out.method, url }
    if (!(await proceed(settings.onRateLimit, event))) throw giveUp(delay)
  }
  // Waits until the shared budget lets one more request go, unless the caller gives up.
  const waitForShared = async (reserve: () => Promise<number>) => {
    for (;;) {
      const delay = await reserve()
      if (delay === 0) return
      await mayWait(delay)
      await sleep(delay, signals)
    }
  }
  // A visitor-driven request beyond its share of the client's own budget is refused before any wait.
  const checkShare = (own: RateBudget) => {
    if (visitorShare === undefined) return
    const wait = own.visitorWait(visitorShare)
    if (wait === 0) return
    throw new RateShareError({
      status: 429,
      headers: own.headers,
      body: undefined,
      url: out.url,
      source: out.service.source,
      retryAfter: wait / 1000,
      message: `Visitor-driven requests took their share (${visitorShare}) of the rate budget of ${out.service.source}; one fits again in ${Math.ceil(wait / 1000)} s.`,
    })
  }
  // Waits for this request's turn in the client's own budget.
  const waitForTurn = async (own: RateBudget): Promise<RateTurn> => {
    const turn = own.take(visitorShare !== undefined)
    if (turn.wait === 0) return turn
    try {
      // An unknown wait (for the first answer to tell the limits) lasts one answer: no event for it.
      if (turn.wait !== undefined) await mayWait(turn.wait)
      await abortable(deadline.race(turn.ready), signals)
      return turn
    } catch (error) {
      turn.cancel()
      throw error
    }
  }

  for (;;) {
    let token: string | undefined
    // The token request itself goes on for the other callers that share it; this one stops waiting.
    if (out.service.token !== undefined)
      token = await abortable(deadline.race(out.service.token.get()), signals)
    // The budget shared with other instances first (when there is one), then the client's own.
    if (budget !== undefined) checkShare(budget)
    if (shared !== undefined) {
      await waitForShared(async () => {
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
    let turn: RateTurn | undefined
    if (budget !== undefined) {
      try {
        checkShare(budget)
        turn = await waitForTurn(budget)
      } catch (error) {
        // The shared budget let this request go: it learns that it was not sent after all.
        settleShared()
        throw error
      }
    }
    let error: unknown
    try {
      const answer = await sendOnce(settings, out, options, token, deadline)
      if (turn !== undefined && budget?.replayed(answer) === true) {
        // A cache's answer (Next.js's data cache): the request spent nothing and tells nothing of now.
        budget.refund(turn)
        settleShared()
      } else {
        if (turn !== undefined) budget?.settle(turn, answer)
        settleShared(answer)
      }
      if (answer.status >= 200 && answer.status < 300) return answer
      if (answer.status === 401 && token !== undefined && !refreshedToken) {
        out.service.token?.invalidate(token)
        refreshedToken = true
        continue
      }
      error = errorFromAnswer(answer, out.service.source)
    } catch (thrown) {
      if (turn !== undefined) budget?.settle(turn)
      settleShared()
      error = thrown
    }
    deadline.lastError = error
    if (!isRetryable(error) || retries >= maxRetries) throw error
    const delay = retryDelay(retries, error instanceof APIError ? error : undefined)
    const event = { delay, attempt: retries + 1, method: out.method, url }
    // A longer wait than maxRetryWait is not made: the error itself is thrown (a RateLimitError
    // with its retryAfter); a wait that would pass the deadline is not started either.
    if (delay > settings.maxRetryWait) throw error
    if (!deadline.allows(delay)) throw deadline.error(error, delay)
    const goOn =
      error instanceof RateLimitError
        ? await proceed(settings.onRateLimit, { ...event, reason: 'refused', error } as RateLimitEvent)
        : await proceed(settings.onRetry, { ...event, error } as RetryEvent)
    if (!goOn) throw error
    // The hooks may have taken a while.
    if (!deadline.allows(delay)) throw deadline.error(error, delay)
    await sleep(delay, signals)
    retries++
  }
}

const errorClasses: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  406: NotAcceptableError,
}

/** The typed error of an answer with a 4xx/5xx status; its body parsed when it is JSON. */
function errorFromAnswer(answer: Incoming, source: ErrorSource): APIError {
  const { text, headers } = answer
  let body: unknown = text
  if ((headers.get('content-type') ?? '').includes('json') || /^\s*[[{]/.test(text)) {
    try {
      body = JSON.parse(text)
    } catch {}
  }
  const init = { status: answer.status, headers, body, url: answer.url, source }
  if (answer.status === 429) {
    const delay = requestedDelay(429, headers)
    return new RateLimitError({ ...init, retryAfter: delay === undefined ? undefined : delay / 1000 })
  }
  if (answer.status >= 500) return new InternalServerError(init)
  const ErrorClass = errorClasses[answer.status] ?? APIError
  return new ErrorClass(init)
}

/**
 * Reads a body as bytes (as text from a fetch without streams), counting the bytes as they arrive; past
 * `maxBytes` it stops reading, cancels the stream and throws `tooLarge()`. Uses the web streams of
 * `Response.body`, as every runtime with fetch has them.
 */
async function readBody(
  response: Response,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<string | Uint8Array> {
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
  // A byte stream (the body of every fetch) hands each chunk over in a buffer of its own, freed once
  // copied: left to the garbage collector, a long sync's chunks pile up outside the heap until a full
  // collection. Chunks of another stream may be the caller's, and are left alone.
  const owned = isByteStream(body)
  const reader = body.getReader()
  // Bytes until the end: text decoded chunk by chunk would live on the heap across every read, and a
  // large answer's worth of it would make V8 grow its young generation.
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      reader.cancel().catch(() => undefined)
      throw tooLarge()
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
    if (owned) release(chunk)
  }
  return bytes
}

function isByteStream(body: ReadableStream<Uint8Array>): boolean {
  try {
    body.getReader({ mode: 'byob' }).releaseLock()
    return true
  } catch {
    return false
  }
}

const decoder = new TextDecoder()

/** An answer whose text is decoded from `body` when first read; `bytes` keeps the body as it came. */
function answerOf(status: number, headers: Headers, url: string, body: string | Uint8Array): Incoming {
  if (typeof body === 'string') return { status, headers, url, text: body }
  let text: string | undefined
  return {
    status,
    headers,
    url,
    bytes: body,
    get text() {
      text ??= decoder.decode(body)
      return text
    },
  }
}

/** Sends once: connect, then read the whole body, all within the timeout and the deadline. */
async function sendOnce(
  settings: HttpSettings,
  out: Outgoing,
  options: RequestOptions,
  token: string | undefined,
  deadline: Deadline,
): Promise<Incoming> {
  const userSignals = [options.signal, settings.signal]
  if (userSignals.some((signal) => signal?.aborted)) throw abortError()
  const attemptTimeout = options.timeout ?? settings.timeout
  const left = deadline.remaining()
  if (left <= 0) throw deadline.error()
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
    // The address (its credentials redacted) and the code of the cause: `fetch failed` alone says
    // neither where nor why.
    const reason = error instanceof Error ? `: ${error.message}` : ''
    const code = connectionCode(error)
    const coded = code === undefined || reason.includes(code) ? '' : ` (${code})`
    return new APIConnectionError(
      `${what} ${out.service.source} at ${out.method} ${url} failed${reason}${coded}`,
      init,
    )
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
    if (out.onHeaders !== undefined && response.status >= 200 && response.status < 300) {
      try {
        await out.onHeaders(response.headers)
      } catch {
        // The answer is read as usual, and what is wrong with its headers is told from there.
      }
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
    let body: string | Uint8Array
    try {
      body = await readBody(response, maxBytes, tooLarge)
    } catch (error) {
      // A body cut short (the connection closed before Content-Length was reached) lands here.
      throw fail(error, 'Reading the answer of')
    }
    // The address an answer keeps (in errors about it, in a cache store) holds no credential.
    return answerOf(response.status, response.headers, url, body)
  } finally {
    clearTimeout(timer)
    for (const signal of userSignals) signal?.removeEventListener('abort', onAbort)
  }
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

  /** Settles with `promise`, or rejects with the deadline error when time runs out first. */
  race<T>(promise: Promise<T>): Promise<T> {
    const left = this.remaining()
    if (left <= 0) return Promise.reject(this.error())
    if (left > MAX_TIMER_MS) return promise
    let timer: ReturnType<typeof setTimeout> | undefined
    const outOfTime = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.error()), left)
    })
    return Promise.race([promise, outOfTime]).finally(() => clearTimeout(timer))
  }
}

function isDeadlineError(error: unknown): error is APITimeoutError {
  return error instanceof APITimeoutError && error.limit === 'totalTimeout'
}

function abortError(): APIUserAbortError {
  return new APIUserAbortError('The request was aborted.')
}

/** Waits `ms`, or rejects with {@link APIUserAbortError} as soon as one of the signals aborts. */
function sleep(ms: number, signals: readonly (AbortSignal | undefined)[]): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const wait = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms)
  })
  return abortable(wait, signals).finally(() => clearTimeout(timer))
}

/** Settles with `promise`, or rejects with {@link APIUserAbortError} as soon as a signal aborts. */
function abortable<T>(promise: Promise<T>, signals: readonly (AbortSignal | undefined)[]): Promise<T> {
  const live = signals.filter((signal): signal is AbortSignal => signal !== undefined)
  if (live.length === 0) return promise
  return new Promise((resolve, reject) => {
    if (live.some((signal) => signal.aborted)) return reject(abortError())
    const onAbort = () => reject(abortError())
    for (const signal of live) signal.addEventListener('abort', onAbort, { once: true })
    const done = () => {
      for (const signal of live) signal.removeEventListener('abort', onAbort)
    }
    promise.finally(done).then(resolve, reject)
  })
}
