import type { PurchaseEventRejection } from '../../resources/purchase-events.ts'
import type { PurchaseEventInput } from '../../types/purchase-events.ts'

/** An event to record in an outbox. */
export interface NewOutboxEntry {
  /**
   * The website (uuid) the event belongs to; `''` when it was recorded without one (the website id was
   * not set yet): it then goes to the website of the client that sends it (its `websiteId` option, else
   * `VERIFIED_REVIEWS_WEBSITE_ID`).
   */
  websiteId: string
  /**
   * Events with the same `websiteId` and `orderKey` are sent in the order they were added: a later
   * one never goes out before an earlier one is sent or dead-lettered.
   */
  orderKey: string
  /** The event, already checked. */
  event: PurchaseEventInput
}

/** An event waiting in an outbox. */
export interface OutboxEntry extends NewOutboxEntry {
  /** Given by the store; unique within it. */
  id: string
  /** Failed sends so far. */
  attempts: number
  /** When it was added (milliseconds since the epoch). */
  enqueuedAt: number
  /** Not sent before this time (milliseconds since the epoch): the backoff after a failure. */
  nextAttemptAt: number
  /** Why the last send failed. */
  lastError?: string
}

/** An event the service refused as invalid: kept aside instead of being sent again. */
export interface OutboxDeadLetter extends OutboxEntry {
  /** When it was set aside (milliseconds since the epoch). */
  deadAt: number
  /** What the service (or the client's own checks) found wrong with it. */
  reasons: PurchaseEventRejection[]
}

/** Options of {@link OutboxStore.claim}. */
export interface OutboxClaimOptions {
  /** Who claims: only this owner can release the claim. */
  owner: string
  /** Milliseconds the claim holds; after that the entries return to the queue by themselves. */
  leaseMs: number
  /** The most entries claimed. */
  limit: number
  /** Claims only among these entries (the send at once of the events just added). */
  ids?: readonly string[]
}

/** Options of {@link OutboxStore.release}. */
export interface OutboxReleaseOptions {
  /** Milliseconds before the entries may be claimed again. */
  delayMs: number
  /** Why the send failed; the entries then count one more failed attempt. Without it, none is counted. */
  error?: string
}

/** One entry to set aside, with why. */
export interface OutboxDeadLetterInput {
  id: string
  reasons: readonly PurchaseEventRejection[]
}

/** What an outbox holds. */
export interface OutboxStats {
  /** Entries waiting to be sent (claimed ones included). */
  pending: number
  /** Entries under a claim that has not expired. */
  leased: number
  /** Entries in the dead-letter list. */
  deadLetters: number
  /** When the next entry can be claimed (milliseconds since the epoch); undefined when none waits. */
  nextAttemptAt: number | undefined
}

/**
 * Where purchase events wait until the service has them: written durably before any send, so that a
 * failed call (service down, 429 storm) or a crash loses nothing. {@link createSqliteOutboxStore} (one
 * server) and {@link createMemoryOutboxStore} (tests) are the embedded stores;
 * `@verified-reviews/redis` has one for several servers. Each call must be atomic: two drainers that
 * claim at the same time never get the same entry.
 *
 * Claiming: an entry can be claimed when it is due (`nextAttemptAt` passed), not under an unexpired
 * claim, and every earlier entry of its order (same `websiteId` and `orderKey`) is sent, set aside, or
 * claimed in the same call. A claim expires after `leaseMs`, so the entries of a drainer that crashed
 * return to the queue.
 */
export interface OutboxStore {
  /**
   * Records the entries durably and answers them, in the same order. An entry whose `websiteId` and
   * `event.purchase_reference` are those of an entry still waiting is not added again: the waiting one
   * is answered (the service keeps one event per reference anyway).
   */
  add(entries: readonly NewOutboxEntry[]): Promise<OutboxEntry[]>
  /** Claims up to `limit` entries that can be claimed (see above), each order's in its order. */
  claim(options: OutboxClaimOptions): Promise<OutboxEntry[]>
  /** Removes entries the service now holds (whoever claimed them). */
  complete(ids: readonly string[]): Promise<void>
  /** Returns entries still claimed by `owner` to the queue, due after `delayMs`. */
  release(owner: string, ids: readonly string[], options: OutboxReleaseOptions): Promise<void>
  /** Moves entries to the dead-letter list, with why (whoever claimed them). */
  deadLetter(items: readonly OutboxDeadLetterInput[]): Promise<void>
  /** The dead-letter list, in the order the entries were set aside. */
  deadLetters(): Promise<OutboxDeadLetter[]>
  /** Removes entries from the dead-letter list (once handled by hand). */
  removeDeadLetters(ids: readonly string[]): Promise<void>
  /** What the store holds. */
  stats(): Promise<OutboxStats>
}
