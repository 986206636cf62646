import { VerifiedReviewsError } from '../../errors.ts'
import type { SubmitPurchaseEventsParams } from '../../resources/params.ts'
import {
  PURCHASE_EVENTS_PER_REQUEST,
  type PurchaseEventRejection,
  type PurchaseEventResult,
  rejectionsByIndex,
} from '../../resources/purchase-events.ts'
import type { PurchaseEvent } from '../../types/purchase-events.ts'
import { chunks } from '../concurrency.ts'
import { remembered } from '../remembered.ts'
import type { RequestOptions } from '../transport/request-options.ts'
import { membersOf } from '../validate.ts'
import type { OutboxEntry, OutboxStore } from './store.ts'

/** What the outbox needs of a client: `createClient()` satisfies it. */
export interface OutboxClient {
  purchaseEvents: {
    submit(params: SubmitPurchaseEventsParams, options?: RequestOptions): Promise<PurchaseEventResult[]>
  }
}

/** How long events wait after a failed send: doubling from `initialDelay` up to `maxDelay`, with jitter. */
export interface OutboxBackoff {
  /**
   * Milliseconds before the first retry (a random half of it is taken off, so retries spread out).
   * @default 1_000
   */
  initialDelay?: number
  /**
   * The longest wait, in milliseconds, after many failures or when a 429 asks for more (`Retry-After`).
   * @default 600_000
   */
  maxDelay?: number
}

/** Why a send failed, as the outbox sorts it. */
export interface DeliveryFailure {
  /**
   * `rate-limited`: a 429; `unavailable`: a 5xx, a timeout, a failed connection or an unreadable
   * answer; `aborted`: the caller's signal; `error`: anything else (credentials refused, a 400 naming
   * no event), which retrying soon will not fix.
   */
  kind: 'rate-limited' | 'unavailable' | 'aborted' | 'error'
  message: string
  /** Milliseconds a 429 asked to wait, when it said. */
  retryAfterMs?: number
}

/** What became of the claimed entries. */
export interface Delivery {
  /** By entry id: the event as the service holds it. */
  created: Map<string, PurchaseEvent>
  /** By entry id: why the service (or the client's checks) refused it; now in the dead-letter list. */
  rejected: Map<string, PurchaseEventRejection[]>
  /** Entries returned to the queue after a failed send. */
  deferred: Set<string>
  /** Requests to the service (`submit` calls). */
  calls: number
  failure?: DeliveryFailure
}

export interface DeliveryContext {
  client: OutboxClient
  store: OutboxStore
  owner: string
  requestOptions: RequestOptions
  backoff: OutboxBackoff | undefined
}

const UNAVAILABLE = new Set([
  'APIConnectionError',
  'APITimeoutError',
  'InvalidResponseError',
  'ResponseTooLargeError',
])

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return text.length > 500 ? `${text.slice(0, 497)}...` : text
}

/** Sorts an error of `submit` by its name and status, so that errors of another copy of this package sort too. */
function sortFailure(error: unknown): DeliveryFailure {
  const { name, status, retryAfter } = membersOf(error)
  const message = errorText(error)
  if (name === 'APIUserAbortError') return { kind: 'aborted', message }
  if (status === 429 || name === 'RateLimitError') {
    return typeof retryAfter === 'number' && Number.isFinite(retryAfter) && retryAfter >= 0
      ? { kind: 'rate-limited', message, retryAfterMs: retryAfter * 1000 }
      : { kind: 'rate-limited', message }
  }
  if ((typeof status === 'number' && status >= 500) || UNAVAILABLE.has(name as string)) {
    return { kind: 'unavailable', message }
  }
  return { kind: 'error', message }
}

/** Milliseconds before entries that failed `attempts` times already may be sent again. */
function retryDelay(attempts: number, failure: DeliveryFailure, backoff: OutboxBackoff = {}): number {
  const initial = backoff.initialDelay ?? 1_000
  const max = backoff.maxDelay ?? 600_000
  const exponential = Math.min(max, initial * 2 ** Math.min(attempts, 40))
  const delay = exponential / 2 + Math.random() * (exponential / 2)
  return Math.round(Math.min(max, Math.max(delay, failure.retryAfterMs ?? 0)))
}

/** The per-event problems of a `ValidationError` of `submit` (every issue naming its event), by position. */
function invalidEvents(error: unknown, size: number): Map<number, PurchaseEventRejection[]> | undefined {
  const { name, issues } = membersOf(error)
  if (name !== 'ValidationError' || !Array.isArray(issues)) return undefined
  if (!issues.every((issue) => typeof membersOf(issue).index === 'number')) return undefined
  const byIndex = rejectionsByIndex(issues, size)
  return byIndex.size > 0 ? byIndex : undefined
}

/**
 * Sends claimed entries, 50 per request and one website at a time, and records what became of each:
 * created ones are completed, refused ones go to the dead-letter list, and on a failed send those
 * entries and every one not yet sent return to the queue (with a backoff) and sending stops.
 */
export async function deliver(context: DeliveryContext, entries: readonly OutboxEntry[]): Promise<Delivery> {
  const delivery: Delivery = { created: new Map(), rejected: new Map(), deferred: new Set(), calls: 0 }
  const byWebsite = new Map<string, OutboxEntry[]>()
  for (const entry of entries) remembered(byWebsite, entry.websiteId.toLowerCase(), () => []).push(entry)
  const batches = [...byWebsite.values()].flatMap((list) => chunks(list, PURCHASE_EVENTS_PER_REQUEST))
  for (const [position, batch] of batches.entries()) {
    await sendBatch(context, batch, delivery)
    if (delivery.failure !== undefined) {
      const untried = batches.slice(position + 1).flat()
      if (untried.length > 0) {
        const ids = untried.map((entry) => entry.id)
        await context.store.release(context.owner, ids, {
          delayMs: retryDelay(0, delivery.failure, context.backoff),
        })
        for (const id of ids) delivery.deferred.add(id)
      }
      break
    }
  }
  return delivery
}

async function sendBatch(context: DeliveryContext, batch: readonly OutboxEntry[], delivery: Delivery) {
  let pending = batch
  while (pending.length > 0) {
    delivery.calls++
    let results: PurchaseEventResult[]
    try {
      results = await context.client.purchaseEvents.submit(
        { websiteId: (pending[0] as OutboxEntry).websiteId, events: pending.map((entry) => entry.event) },
        context.requestOptions,
      )
      if (!Array.isArray(results) || results.length !== pending.length) {
        throw new VerifiedReviewsError(
          `purchaseEvents.submit answered ${Array.isArray(results) ? results.length : 'no'} results for ${pending.length} events`,
        )
      }
    } catch (error) {
      const invalid = invalidEvents(error, pending.length)
      if (invalid !== undefined) {
        // The client's own checks refused some events before sending: set them aside, send the rest.
        const dead = [...invalid].flatMap(([index, reasons]) => {
          const entry = pending[index]
          return entry === undefined ? [] : [{ id: entry.id, reasons }]
        })
        await context.store.deadLetter(dead)
        for (const { id, reasons } of dead) delivery.rejected.set(id, reasons)
        pending = pending.filter((_, index) => !invalid.has(index))
        continue
      }
      const failure = sortFailure(error)
      const attempts = Math.max(...pending.map((entry) => entry.attempts))
      const ids = pending.map((entry) => entry.id)
      await context.store.release(
        context.owner,
        ids,
        failure.kind === 'aborted'
          ? { delayMs: 0 }
          : { delayMs: retryDelay(attempts, failure, context.backoff), error: failure.message },
      )
      for (const id of ids) delivery.deferred.add(id)
      delivery.failure = failure
      return
    }
    const done: string[] = []
    const dead: { id: string; reasons: PurchaseEventRejection[] }[] = []
    pending.forEach((entry, index) => {
      const result = results[index] as PurchaseEventResult
      if (result.status === 'created') {
        done.push(entry.id)
        delivery.created.set(entry.id, result.event)
      } else {
        dead.push({ id: entry.id, reasons: result.reasons })
        delivery.rejected.set(entry.id, result.reasons)
      }
    })
    if (done.length > 0) await context.store.complete(done)
    if (dead.length > 0) await context.store.deadLetter(dead)
    return
  }
}
