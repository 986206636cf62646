import {
  PURCHASE_EVENTS_PER_REQUEST,
  type PurchaseEventRejection,
  type PurchaseEventResult,
  rejectionsByIndex,
} from '../../resources/purchase-events.ts'
import type { SubmitPurchaseEventsParams } from '../../types/params.ts'
import type { PurchaseEvent, PurchaseEventInput } from '../../types/purchase-events.ts'
import type { RequestOptions } from '../../types/request-options.ts'
import { chunks } from '../base/concurrency.ts'
import { VerifiedReviewsError } from '../base/errors.ts'
import { remembered } from '../base/remembered.ts'
import { check, Issues, isIntegerIn, isUuid, membersOf } from '../base/validate.ts'
import { checkPurchaseEvent } from '../purchase-events/purchase-event-checks.ts'
import { environmentClientOptions, processEnvironment } from '../settings/environment.ts'
import { backoffDelay } from '../transport/retry-timing.ts'
import type { NewOutboxEntry, OutboxEntry, OutboxReleaseOptions, OutboxStore } from './store.ts'

/** Options of {@link sendPurchaseEvents}. */
export interface SendPurchaseEventsOptions {
  /** The client that sends (`createClient()`). */
  client: OutboxClient
  /** Where the events are recorded before anything is sent. */
  store: OutboxStore
  /** The events, built on the server from the confirmed order. */
  events: readonly PurchaseEventInput[]
  /**
   * The website (uuid) the events belong to. Without this option, the events are recorded even when
   * `VERIFIED_REVIEWS_WEBSITE_ID` is not set (or is not a uuid), so that a misconfiguration loses
   * nothing: they wait in the outbox, with that reason, and go to the website of the client that
   * sends them (its `websiteId` option, else the variable) once it has one.
   * @default process.env.VERIFIED_REVIEWS_WEBSITE_ID
   */
  websiteId?: string
  /**
   * The order an event belongs to: events of one order are sent in the order they were recorded,
   * a later one never before an earlier one (across calls, drains and servers).
   * @default the event's purchase_reference
   */
  orderKey?: (event: PurchaseEventInput) => string
  /**
   * Milliseconds the send at once may take (getting a token included, no retry); past it, or on any
   * failure, the events are left to the drain.
   * @default 10_000
   */
  timeout?: number
  /**
   * The wait before a failed event is sent again (by a drain).
   * @default { initialDelay: 1_000, maxDelay: 600_000 }
   */
  backoff?: OutboxBackoff
  /**
   * Where the warnings go: when the store cannot record the events (they are then sent directly), and
   * when the events wait for a setting (the website id, the credentials).
   * @default console
   */
  logger?: { warn(message: string): void }
}

/** What became of one event given to {@link sendPurchaseEvents}. */
export type OutboxSendResult =
  | {
      status: 'created'
      /** The event as the service holds it. */
      event: PurchaseEvent
    }
  | {
      /** Recorded in the outbox, not sent yet: a drain sends it. */
      status: 'queued'
      /** The entry that holds it. */
      entryId: string
      /**
       * Why it was not sent at once: the service's failure, or the missing setting (`websiteId: is
       * required: pass it or set the client option websiteId (VERIFIED_REVIEWS_WEBSITE_ID)`).
       */
      reason: string
    }
  | {
      /** Refused by the service as invalid: in the dead-letter list. */
      status: 'rejected'
      reasons: PurchaseEventRejection[]
    }

const WAITING = 'waits behind an earlier event of its order, or a drain is sending it'

/** The `websiteId` of an entry recorded without one: it goes to the website of the client that sends it. */
const UNKNOWN_WEBSITE = ''

/**
 * Records purchase events in an outbox, durably, then sends them at once; whatever the service does
 * not take now (it is down, it answers 429 or 5xx, it is slow) stays recorded for {@link drainOutbox},
 * which the scheduler of the revalidate route calls. Nothing is lost between the checkout and the
 * service, and nothing is created twice as long as the service keeps one event per
 * `purchase_reference` (the sandbox does; the spec does not promise it), so that an event sent again
 * after a crash is not created again.
 *
 * The events are checked first, as `purchaseEvents.submit` checks them: if any is invalid a
 * `ValidationError` lists every problem by index and field (`events[3].consumer.email`) and nothing
 * is recorded. Events that pass are recorded before anything the send needs is asked for: without a
 * website id or credentials (or with an environment the client refuses), they wait in the outbox,
 * `queued` with that reason and a warning to the logger, and the first drain after the setting is
 * fixed sends them. An event the service refuses as invalid goes to the dead-letter list. If the
 * store cannot record the events, they are sent directly (with the client's retries), with a warning;
 * only when that fails too does this throw.
 *
 * @returns one result per event, in input order.
 */
export async function sendPurchaseEvents(options: SendPurchaseEventsOptions): Promise<OutboxSendResult[]> {
  const issues = new Issues()
  // A website given in the code must be one; the environment's is only needed to send (see websiteId).
  const fromEnvironment = environmentClientOptions(processEnvironment()).websiteId
  const websiteId =
    options.websiteId !== undefined
      ? issues.websiteId(options.websiteId, undefined)
      : isUuid(fromEnvironment)
        ? fromEnvironment
        : UNKNOWN_WEBSITE
  const given: unknown = options.events
  if (!Array.isArray(given)) issues.add('events', 'must be an array of purchase events')
  const timeout = options.timeout ?? 10_000
  if (!(Number.isFinite(timeout) && timeout > 0))
    issues.add('timeout', 'must be a number of milliseconds, above 0')
  issues.throwIfAny()
  const events = given as readonly PurchaseEventInput[]
  events.forEach((event, index) => {
    checkPurchaseEvent(event, index, websiteId === UNKNOWN_WEBSITE ? undefined : websiteId, issues)
  })
  issues.throwIfAny()
  const news: NewOutboxEntry[] = events.map((event, index) => {
    const orderKey = options.orderKey === undefined ? event.purchase_reference : options.orderKey(event)
    if (typeof orderKey !== 'string' || orderKey === '') {
      issues.add(`events[${index}]`, 'orderKey(event) must answer a non-empty string', index)
    }
    return { websiteId: websiteId, orderKey, event }
  })
  issues.throwIfAny()

  let entries: OutboxEntry[]
  try {
    entries = await options.store.add(news)
  } catch (storeError) {
    // Sent directly (with the client's retries): the events are not lost unless this fails too.
    const why = storeError instanceof Error ? storeError.message : String(storeError)
    ;(options.logger ?? console).warn(
      `@verified-reviews/core: the outbox could not record ${events.length} purchase event(s) (${why}); sending them directly.`,
    )
    try {
      const website = websiteId === UNKNOWN_WEBSITE ? {} : { websiteId }
      const results = await options.client.purchaseEvents.submit({ ...website, events })
      return results.map((result) =>
        result.status === 'created'
          ? { status: 'created', event: result.event }
          : { status: 'rejected', reasons: result.reasons },
      )
    } catch (sendError) {
      const sent = sendError instanceof Error ? sendError.message : String(sendError)
      throw new VerifiedReviewsError(
        `the purchase events could not be recorded in the outbox (${why}) nor sent (${sent})`,
        { cause: storeError },
      )
    }
  }

  const owner = `send-${globalThis.crypto.randomUUID()}`
  const ids = [...new Set(entries.map((entry) => entry.id))]
  // The claim outlives the send (cut at `timeout`), so no drain takes these entries meanwhile.
  const claimed = await options.store.claim({ owner, leaseMs: 2 * timeout + 1_000, limit: ids.length, ids })
  const delivery = await deliver(options, owner, { maxRetries: 0, totalTimeout: timeout }, claimed)
  if (delivery.failure?.kind === 'not-configured') {
    ;(options.logger ?? console).warn(
      `@verified-reviews/core: ${delivery.deferred.size} purchase event(s) are recorded in the outbox and wait for a setting (${delivery.failure.message}); the first drain after it is set sends them.`,
    )
  }
  return entries.map((entry): OutboxSendResult => {
    const created = delivery.created.get(entry.id)
    if (created !== undefined) return { status: 'created', event: created }
    const reasons = delivery.rejected.get(entry.id)
    if (reasons !== undefined) return { status: 'rejected', reasons }
    const reason = delivery.deferred.has(entry.id) ? (delivery.failure?.message ?? WAITING) : WAITING
    return { status: 'queued', entryId: entry.id, reason }
  })
}

/** Options of {@link drainOutbox}. */
export interface DrainOutboxOptions extends Pick<SendPurchaseEventsOptions, 'client' | 'backoff'> {
  /** The outbox that {@link sendPurchaseEvents} records in. */
  store: OutboxStore
  /**
   * Events per request, 1 to 50.
   * @default 50
   */
  batchSize?: number
  /**
   * Milliseconds a claim on a batch holds: if this drain dies, its batch returns to the queue after
   * that long. Each request is cut at half of it, so a slow request never outlives its claim.
   * @default 60_000
   */
  leaseMs?: number
  /**
   * Milliseconds after which no new batch is claimed (the batch under way finishes), to fit the time
   * limit of a serverless function.
   * @default 20_000
   */
  maxDuration?: number
  /**
   * The most events claimed by this call.
   * @default Infinity
   */
  maxEvents?: number
  /**
   * Failed batches in a row (5xx, timeouts, failed connections) after which the drain stops, as the
   * service seems down. A 429 stops it at once, as does any other failure (credentials refused).
   * @default 3
   */
  maxFailures?: number
  /**
   * Stops the drain; the batch under way returns to the queue, with no attempt counted.
   * @default undefined
   */
  signal?: AbortSignal
}

/** Why {@link drainOutbox} stopped. */
export type OutboxDrainStop =
  /** Nothing waits: every event is sent or in the dead-letter list. */
  | 'empty'
  /**
   * Events wait, but none can be sent now: they back off after a failure, or another drain has
   * claimed them. The report's `nextAttemptAt` says when the first is due.
   */
  | 'waiting'
  /**
   * A setting the send needs is missing or refused by the client before any request (the website id,
   * the credentials, a malformed variable): the events wait, with that reason as their `lastError`,
   * and are due again at once, so the first drain after it is fixed sends them.
   */
  | 'not-configured'
  /** The service answered 429. */
  | 'rate-limited'
  /** `maxFailures` batches in a row failed with a 5xx, a timeout or a failed connection. */
  | 'unavailable'
  /** A failure that retrying soon will not fix (credentials refused, a 400 naming no event). */
  | 'error'
  /** `maxDuration` passed. */
  | 'time'
  /** `maxEvents` were claimed. */
  | 'max-events'
  /** The signal aborted. */
  | 'aborted'

/** What {@link drainOutbox} did. */
export interface OutboxDrainReport {
  /** Events the service now holds (created, or held already under their `purchase_reference`). */
  sent: number
  /** Events the service refused as invalid, moved to the dead-letter list. */
  deadLettered: number
  /** Events whose send failed, back in the queue with a backoff. */
  deferred: number
  /** Requests made to the service. */
  calls: number
  /** Batches that failed. */
  failures: number
  stoppedBy: OutboxDrainStop
  /** Why the last failed batch failed. */
  lastError?: string
  /** Milliseconds a 429 asked to wait, when it said. */
  retryAfterMs?: number
  /** Milliseconds the drain took. */
  durationMs: number
  /**
   * When the first event still waiting is due (ISO 8601): after its backoff, or when another drain's
   * claim on it expires; now or earlier when one could be sent at once (a drain stopped by `time` or
   * `max-events`). Absent when nothing waits.
   */
  nextAttemptAt?: string
}

/**
 * Sends what waits in an outbox: claims a batch (so that no other drainer, on this server or another,
 * sends it too), sends it, and records what became of each event, until nothing can be claimed or a
 * limit is reached. Call it from a scheduler, on any server (the Next package's
 * `createOutboxDrainRoute` wraps it in a route).
 *
 * - Exactly once: an event leaves the outbox once the service holds it. If the drain dies after
 *   sending and before recording it, its claim expires and the event is sent again, which the
 *   service answers with the event it already holds (one event per `purchase_reference`).
 * - In order: events of one order (see `orderKey`) go out in the order they were recorded.
 * - Refused events (the service's per-event refusals, or the client's own checks) move to the
 *   dead-letter list and no longer hold back their order.
 * - Failures (429, 5xx, timeouts) put the batch back with a growing backoff (a 429's `Retry-After`
 *   at least); a 429 stops the drain.
 */
export async function drainOutbox(options: DrainOutboxOptions): Promise<OutboxDrainReport> {
  const batchSize = options.batchSize ?? PURCHASE_EVENTS_PER_REQUEST
  const leaseMs = options.leaseMs ?? 60_000
  const maxDuration = options.maxDuration ?? 20_000
  const maxEvents = options.maxEvents ?? Number.POSITIVE_INFINITY
  const maxFailures = options.maxFailures ?? 3
  const most = PURCHASE_EVENTS_PER_REQUEST
  check(isIntegerIn(batchSize, 1, most), 'batchSize', `must be an integer from 1 to ${most}`)
  check(Number.isFinite(leaseMs) && leaseMs >= 2, 'leaseMs', 'must be a number of milliseconds, 2 or more')
  check(maxDuration >= 0, 'maxDuration', 'must be a number of milliseconds, 0 or more')
  check(maxEvents >= 0, 'maxEvents', 'must be a number, 0 or more')
  check(Number.isInteger(maxFailures) && maxFailures >= 1, 'maxFailures', 'must be an integer, 1 or more')

  const start = Date.now()
  const owner = `drain-${globalThis.crypto.randomUUID()}`
  const requestOptions = {
    maxRetries: 0,
    totalTimeout: Math.floor(leaseMs / 2),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  }
  const report: OutboxDrainReport = {
    sent: 0,
    deadLettered: 0,
    deferred: 0,
    calls: 0,
    failures: 0,
    stoppedBy: 'empty',
    durationMs: 0,
  }
  let claimedSoFar = 0
  let failuresInARow = 0
  const stop = async (why: OutboxDrainStop) => {
    const { pending, nextAttemptAt } = await options.store.stats()
    // Nothing claimable while events wait: say so, and when the first is due, rather than `empty`.
    report.stoppedBy = why === 'empty' && pending > 0 ? 'waiting' : why
    if (pending > 0 && nextAttemptAt !== undefined)
      report.nextAttemptAt = new Date(nextAttemptAt).toISOString()
    report.durationMs = Date.now() - start
    return report
  }
  for (;;) {
    if (options.signal?.aborted) return stop('aborted')
    if (Date.now() - start >= maxDuration) return stop('time')
    if (claimedSoFar >= maxEvents) return stop('max-events')
    const claimed = await options.store.claim({
      owner,
      leaseMs,
      limit: Math.min(batchSize, maxEvents - claimedSoFar),
    })
    if (claimed.length === 0) return stop('empty')
    claimedSoFar += claimed.length
    const delivery = await deliver(options, owner, requestOptions, claimed)
    report.sent += delivery.created.size
    report.deadLettered += delivery.rejected.size
    report.deferred += delivery.deferred.size
    report.calls += delivery.calls
    const failure = delivery.failure
    if (failure === undefined) {
      failuresInARow = 0
      continue
    }
    report.failures++
    report.lastError = failure.message
    // Only a 429 says how long to wait; any failure but a 5xx (or alike) stops the drain at once.
    if (failure.retryAfterMs !== undefined) report.retryAfterMs = failure.retryAfterMs
    if (failure.kind !== 'unavailable') return stop(failure.kind)
    failuresInARow++
    if (failuresInARow >= maxFailures) return stop('unavailable')
  }
}

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
   * answer; `aborted`: the caller's signal; `not-configured`: the client refused to send before any
   * request, for a setting (a `ValidationError` naming no event: no website id, no credentials);
   * `error`: anything else (credentials refused, a 400 naming no event), which retrying soon will not fix.
   */
  kind: 'rate-limited' | 'unavailable' | 'aborted' | 'not-configured' | 'error'
  message: string
  /** Milliseconds a 429 asked to wait, when it said. */
  retryAfterMs?: number
}

/** What became of the claimed entries. */
interface Delivery {
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

const UNAVAILABLE = new Set([
  'APIConnectionError',
  'APITimeoutError',
  'InvalidResponseError',
  'ResponseTooLargeError',
])

/** Sorts an error of `submit` by its name and status, so that errors of another copy of this package sort too. */
function sortFailure(error: unknown): DeliveryFailure {
  const { name, status, retryAfter } = membersOf(error)
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  const message = text.length > 500 ? `${text.slice(0, 497)}...` : text
  if (name === 'APIUserAbortError') return { kind: 'aborted', message }
  if (name === 'ValidationError') return { kind: 'not-configured', message }
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
  const max = backoff.maxDelay ?? 600_000
  const delay = backoffDelay(attempts, Math.random, backoff.initialDelay ?? 1_000, max)
  return Math.round(Math.min(max, Math.max(delay, failure.retryAfterMs ?? 0)))
}

/**
 * Sends claimed entries, 50 per request and one website at a time, and records what became of each:
 * created ones are completed, refused ones go to the dead-letter list, and on a failed send those
 * entries and every one not yet sent return to the queue (with a backoff) and sending stops. A batch
 * the client refused for a setting returns to the queue due at once, with the reason, and the other
 * websites' batches are still sent (only the entries recorded without a website may lack one).
 */
async function deliver(
  { client, store, backoff }: Pick<SendPurchaseEventsOptions, 'client' | 'store' | 'backoff'>,
  owner: string,
  requestOptions: RequestOptions,
  entries: readonly OutboxEntry[],
): Promise<Delivery> {
  const delivery: Delivery = { created: new Map(), rejected: new Map(), deferred: new Set(), calls: 0 }
  const defer = async (list: readonly OutboxEntry[], options: OutboxReleaseOptions) => {
    const ids = list.map((entry) => entry.id)
    if (ids.length > 0) await store.release(owner, ids, options)
    for (const id of ids) delivery.deferred.add(id)
  }
  const setAside = async (dead: { id: string; reasons: PurchaseEventRejection[] }[]) => {
    await store.deadLetter(dead)
    for (const { id, reasons } of dead) delivery.rejected.set(id, reasons)
  }
  const byWebsite = new Map<string, OutboxEntry[]>()
  for (const entry of entries) remembered(byWebsite, entry.websiteId.toLowerCase(), () => []).push(entry)
  const batches = [...byWebsite.values()].flatMap((list) => chunks(list, PURCHASE_EVENTS_PER_REQUEST))
  for (const [position, batch] of batches.entries()) {
    let pending = batch
    while (pending.length > 0) {
      delivery.calls++
      let results: PurchaseEventResult[]
      try {
        const websiteId = (pending[0] as OutboxEntry).websiteId
        const website = websiteId === UNKNOWN_WEBSITE ? {} : { websiteId }
        results = await client.purchaseEvents.submit(
          { ...website, events: pending.map((entry) => entry.event) },
          requestOptions,
        )
        if (!Array.isArray(results) || results.length !== pending.length) {
          throw new VerifiedReviewsError(
            `purchaseEvents.submit answered ${Array.isArray(results) ? results.length : 'no'} results for ${pending.length} events`,
          )
        }
      } catch (error) {
        // The client's own checks refused some events before sending (a `ValidationError` whose every
        // issue names its event): set them aside, send the rest.
        const { name, issues } = membersOf(error)
        const byEvent =
          Array.isArray(issues) && issues.every((issue) => typeof membersOf(issue).index === 'number')
        const invalid = rejectionsByIndex(name === 'ValidationError' && byEvent ? issues : [], pending.length)
        if (invalid.size > 0) {
          await setAside(
            [...invalid].map(([index, reasons]) => ({ id: (pending[index] as OutboxEntry).id, reasons })),
          )
          pending = pending.filter((_, index) => !invalid.has(index))
          continue
        }
        const failure = sortFailure(error)
        delivery.failure = failure
        if (failure.kind === 'not-configured') {
          // No request was made: nothing to back off from, and fixing the setting is what it waits for.
          await defer(pending, { delayMs: 0, error: failure.message })
          break
        }
        const attempts = Math.max(...pending.map((entry) => entry.attempts))
        await defer(
          pending,
          failure.kind === 'aborted'
            ? { delayMs: 0 }
            : { delayMs: retryDelay(attempts, failure, backoff), error: failure.message },
        )
        await defer(batches.slice(position + 1).flat(), { delayMs: retryDelay(0, failure, backoff) })
        return delivery
      }
      const done: string[] = []
      const dead: { id: string; reasons: PurchaseEventRejection[] }[] = []
      pending.forEach((entry, index) => {
        const result = results[index] as PurchaseEventResult
        if (result.status === 'created') {
          done.push(entry.id)
          delivery.created.set(entry.id, result.event)
        } else dead.push({ id: entry.id, reasons: result.reasons })
      })
      if (done.length > 0) await store.complete(done)
      if (dead.length > 0) await setAside(dead)
      break
    }
  }
  return delivery
}
