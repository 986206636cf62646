import { APIConnectionError, APITimeoutError, ResponseTooLargeError } from '../../errors.ts'
import { connectionCode } from '../connection-code.ts'
import { redactUrl, rememberSecret } from '../redact.ts'
import { abortError } from './http-abort.ts'
import { type Deadline, MAX_TIMER_MS } from './http-deadline.ts'
import type { HttpSettings, Incoming, Outgoing } from './http-types.ts'
import { release } from './json-items.ts'
import type { RequestOptions } from './request-options.ts'

export interface Attempt {
  settings: HttpSettings
  out: Outgoing
  options: RequestOptions
  token: string | undefined
  deadline: Deadline
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
export async function sendOnce({ settings, out, options, token, deadline }: Attempt): Promise<Incoming> {
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
