import type { ErrorSource } from '../../errors.ts'
import type { CacheErrorContext } from '../cache/read-through.ts'
import type { CacheStore } from '../cache/store.ts'
import type { SharedRateBudget } from '../shared-state.ts'
import type { RateBudget } from './rate-budget.ts'
import type { FetchOptions, RateLimitEvent, RetryEvent } from './request-options.ts'
import type { TokenCache } from './token-cache.ts'

// What the files of the transport speak: the settings, the service, a request and its answer.

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
  /** The body's bytes, when it was read as such (`text` is then decoded from them when first read). */
  bytes?: Uint8Array
}
