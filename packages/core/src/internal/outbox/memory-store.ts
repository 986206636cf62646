import { OutboxState } from './state.ts'
import type { OutboxStore } from './store.ts'

/** Options of {@link createMemoryOutboxStore}. */
export interface MemoryOutboxStoreOptions {
  /**
   * The clock of claims and backoffs, in milliseconds since the epoch (tests move it by hand).
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
  return {
    add: async (entries) => state.add(entries, now()).result,
    claim: async (claim) => state.claim(claim, now()).result,
    complete: async (ids) => state.complete(ids).result,
    release: async (owner, ids, release) => state.release(owner, ids, release, now()).result,
    deadLetter: async (items) => state.deadLetter(items, now()).result,
    deadLetters: async () => state.deadLetters(),
    removeDeadLetters: async (ids) => state.removeDeadLetters(ids).result,
    stats: async () => state.stats(now()),
  }
}
