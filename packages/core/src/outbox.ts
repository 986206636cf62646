/**
 * `@verified-reviews/core/outbox`: purchase events that are never lost. {@link sendPurchaseEvents}
 * records the events durably, then sends them at once; {@link drainOutbox} sends later what the
 * service did not take (down, 429, 5xx), exactly once per `purchase_reference`, in order per order,
 * with a backoff, claims that expire when a drainer dies, and a dead-letter list for events the
 * service refuses. The stores: an SQLite file for one server, memory for tests, and Redis (in
 * `@verified-reviews/redis`) for several.
 *
 * @module
 */

export { createMemoryOutboxStore, type MemoryOutboxStoreOptions } from './internal/outbox/memory-store.ts'
export {
  type DeliveryFailure,
  type DrainOutboxOptions,
  drainOutbox,
  type OutboxBackoff,
  type OutboxClient,
  type OutboxDrainReport,
  type OutboxDrainStop,
  type OutboxSendResult,
  type SendPurchaseEventsOptions,
  sendPurchaseEvents,
} from './internal/outbox/send.ts'
export { createSqliteOutboxStore, type SqliteOutboxStoreOptions } from './internal/outbox/sqlite-store.ts'
export type {
  NewOutboxEntry,
  OutboxClaimOptions,
  OutboxDeadLetter,
  OutboxDeadLetterInput,
  OutboxEntry,
  OutboxReleaseOptions,
  OutboxStats,
  OutboxStore,
} from './internal/outbox/store.ts'
