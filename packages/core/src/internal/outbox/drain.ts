import { PURCHASE_EVENTS_PER_REQUEST } from '../../resources/purchase-events.ts'
import { check, isIntegerIn } from '../validate.ts'
import { deliver } from './deliver.ts'
import type { SendPurchaseEventsOptions } from './send.ts'
import type { OutboxStore } from './store.ts'

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
  /** Nothing can be claimed now: the outbox is empty, or what waits is backing off or claimed. */
  | 'empty'
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
  const stop = (why: OutboxDrainStop) => {
    report.stoppedBy = why
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
    const delivery = await deliver(
      { client: options.client, store: options.store, owner, requestOptions, backoff: options.backoff },
      claimed,
    )
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
    if (failure.kind === 'aborted') return stop('aborted')
    if (failure.kind === 'rate-limited') {
      if (failure.retryAfterMs !== undefined) report.retryAfterMs = failure.retryAfterMs
      return stop('rate-limited')
    }
    if (failure.kind === 'error') return stop('error')
    failuresInARow++
    if (failuresInARow >= maxFailures) return stop('unavailable')
  }
}
