import { VerifiedReviewsError } from '../../errors.ts'
import type { PurchaseEventRejection } from '../../resources/purchase-events.ts'
import type { PurchaseEvent, PurchaseEventInput } from '../../types/purchase-events.ts'
import { ENVIRONMENT_VARIABLES, environmentVariable, processEnvironment } from '../environment.ts'
import { checkPurchaseEvent } from '../purchase-event-checks.ts'
import { Issues } from '../validate.ts'
import { type Delivery, deliver, type OutboxBackoff, type OutboxClient } from './deliver.ts'
import type { NewOutboxEntry, OutboxEntry, OutboxStore } from './store.ts'

/** Options of {@link sendPurchaseEvents}. */
export interface SendPurchaseEventsOptions {
  /** The client that sends (`createClient()`). */
  client: OutboxClient
  /** Where the events are recorded before anything is sent. */
  store: OutboxStore
  /** The events, built on the server from the confirmed order. */
  events: readonly PurchaseEventInput[]
  /**
   * The website (uuid) the events belong to.
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
   * Where the warning goes when the store cannot record the events (they are then sent directly).
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
      /** Why it was not sent at once. */
      reason: string
    }
  | {
      /** Refused by the service as invalid: in the dead-letter list. */
      status: 'rejected'
      reasons: PurchaseEventRejection[]
    }

const WAITING = 'waits behind an earlier event of its order, or a drain is sending it'

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
 * is recorded. An event the service refuses as invalid goes to the dead-letter list. If the store
 * cannot record the events, they are sent directly (with the client's retries), with a warning; only
 * when that fails too does this throw.
 *
 * @returns one result per event, in input order.
 */
export async function sendPurchaseEvents(options: SendPurchaseEventsOptions): Promise<OutboxSendResult[]> {
  const { client, store } = options
  const issues = new Issues()
  const fromEnvironment = environmentVariable('websiteId', processEnvironment())
  const websiteId = issues.websiteId(options.websiteId, fromEnvironment, ENVIRONMENT_VARIABLES.websiteId)
  const given: unknown = options.events
  if (!Array.isArray(given)) issues.add('events', 'must be an array of purchase events')
  const timeout = options.timeout ?? 10_000
  if (!(Number.isFinite(timeout) && timeout > 0))
    issues.add('timeout', 'must be a number of milliseconds, above 0')
  issues.throwIfAny()
  const events = given as readonly PurchaseEventInput[]
  events.forEach((event, index) => {
    checkPurchaseEvent(event, index, websiteId, issues)
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
    entries = await store.add(news)
  } catch (storeError) {
    return sendDirectly(options, websiteId, storeError)
  }

  const owner = `send-${globalThis.crypto.randomUUID()}`
  const ids = [...new Set(entries.map((entry) => entry.id))]
  // The claim outlives the send (cut at `timeout`), so no drain takes these entries meanwhile.
  const claimed = await store.claim({ owner, leaseMs: 2 * timeout + 1_000, limit: ids.length, ids })
  const delivery: Delivery =
    claimed.length === 0
      ? { created: new Map(), rejected: new Map(), deferred: new Set(), calls: 0 }
      : await deliver(
          {
            client,
            store,
            owner,
            requestOptions: { maxRetries: 0, totalTimeout: timeout },
            backoff: options.backoff,
          },
          claimed,
        )
  return entries.map((entry): OutboxSendResult => {
    const created = delivery.created.get(entry.id)
    if (created !== undefined) return { status: 'created', event: created }
    const reasons = delivery.rejected.get(entry.id)
    if (reasons !== undefined) return { status: 'rejected', reasons }
    const reason = delivery.deferred.has(entry.id) ? (delivery.failure?.message ?? WAITING) : WAITING
    return { status: 'queued', entryId: entry.id, reason }
  })
}

async function sendDirectly(
  options: SendPurchaseEventsOptions,
  websiteId: string,
  storeError: unknown,
): Promise<OutboxSendResult[]> {
  const why = storeError instanceof Error ? storeError.message : String(storeError)
  ;(options.logger ?? console).warn(
    `@verified-reviews/core: the outbox could not record ${options.events.length} purchase event(s) (${why}); sending them directly.`,
  )
  try {
    const results = await options.client.purchaseEvents.submit({ websiteId, events: options.events })
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
