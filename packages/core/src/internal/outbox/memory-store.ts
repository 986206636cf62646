import { OutboxState, outboxStoreOver } from './state.ts'
import type { OutboxStore } from './store.ts'

/** Options of {@link createMemoryOutboxStore}. */
export interface MemoryOutboxStoreOptions {
  /**
   * The clock of claims and backoffs, in milliseconds since the epoch (tests may move it by hand).
   * @default Date.now
   */
  now?: () => number
}

/**
 * An {@link OutboxStore} in this process's memory: for tests and demos only, since what it holds is
 * lost when the process ends (which is what an outbox is for). Use {@link createSqliteOutboxStore} on one
 * server and the Redis store of `@verified-reviews/redis` on several.
 */
export function createMemoryOutboxStore(options: MemoryOutboxStoreOptions = {}): OutboxStore {
  const state = new OutboxState()
  const now = options.now ?? Date.now
  return outboxStoreOver(async (operation) => operation(state, now()).result)
}
