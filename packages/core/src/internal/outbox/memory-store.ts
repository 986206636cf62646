import { remembered } from '../base/remembered.ts'
import type {
  NewOutboxEntry,
  OutboxClaimOptions,
  OutboxDeadLetter,
  OutboxDeadLetterInput,
  OutboxEntry,
  OutboxReleaseOptions,
  OutboxStats,
  OutboxStore,
} from './store.ts'

/** An entry as a store keeps it: with its claim. */
export interface HeldEntry extends OutboxEntry {
  owner?: string
  /** The claim holds until then (milliseconds since the epoch); 0 when unclaimed. */
  leaseUntil: number
}

/**
 * One change of an outbox: a row of the SQLite store (a JSON line of the former file store's journal).
 * Every decision (which entries a claim takes, whose claim a release ends) is made before the record is
 * written, so replaying the records gives the same state in every process.
 */
export type OutboxRecord =
  /** The first change of an outbox; after a rewrite it carries the last id given. */
  | { t: 'outbox'; v: 1; sequence?: number }
  | { t: 'entry'; entry: HeldEntry }
  | { t: 'claim'; ids: string[]; owner: string; until: number }
  | { t: 'done'; ids: string[] }
  | { t: 'release'; ids: string[]; at: number; error?: string }
  | { t: 'dead'; items: OutboxDeadLetterInput[]; at: number }
  | { t: 'dead-entry'; dead: OutboxDeadLetter }
  | { t: 'forget'; ids: string[] }

/** The {@link OutboxStore} whose calls are operations on a state through `run` (which keeps their records or not). */
export function outboxStoreOver(
  run: <T>(operation: (state: OutboxState, now: number) => T) => Promise<T>,
): OutboxStore {
  return {
    add: (entries) => run((state, now) => state.add(entries, now)),
    claim: (claim) => run((state, now) => state.claim(claim, now)),
    complete: (ids) => run((state) => state.complete(ids)),
    release: (owner, ids, release) => run((state, now) => state.release(owner, ids, release, now)),
    deadLetter: (items) => run((state, now) => state.deadLetter(items, now)),
    deadLetters: () => run((state) => state.deadLetters()),
    removeDeadLetters: (ids) => run((state) => state.removeDeadLetters(ids)),
    stats: () => run((state, now) => state.stats(now)),
  }
}

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
  return outboxStoreOver(async (operation) => operation(state, now()))
}

/** The key of an order (`orderKey`) or of an event (`purchase_reference`) within its website. */
function keyOf(websiteId: string, within: string): string {
  return `${websiteId.toLowerCase()}\n${within}`
}

/** The public view of an entry: a copy without its claim. */
function publicEntry({ owner: _owner, leaseUntil: _leaseUntil, ...entry }: HeldEntry): OutboxEntry {
  return structuredClone(entry)
}

/**
 * The state of an outbox in memory, changed only through records: the memory store keeps it, the
 * SQLite store rebuilds it from its changes. Entries wait in one queue per order (website and order
 * key), oldest first; the orders are visited in the order they first held an entry.
 */
export class OutboxState {
  /** The last id given; ids are its successors as decimal strings. */
  sequence = 0
  readonly entries = new Map<string, HeldEntry>()
  readonly orders = new Map<string, string[]>()
  readonly references = new Map<string, string>()
  readonly dead = new Map<string, OutboxDeadLetter>()
  /** When set, the records of the operations made since (not those applied), in order. */
  changes?: OutboxRecord[]

  /** Applies one record (already decided); records naming what is gone change nothing. */
  apply(record: OutboxRecord): void {
    switch (record.t) {
      case 'outbox':
        if (record.sequence !== undefined) this.#bump(String(record.sequence))
        return
      case 'entry': {
        const { entry } = record
        this.#bump(entry.id)
        if (this.entries.has(entry.id)) return
        this.entries.set(entry.id, entry)
        remembered(this.orders, keyOf(entry.websiteId, entry.orderKey), () => []).push(entry.id)
        this.references.set(keyOf(entry.websiteId, entry.event.purchase_reference), entry.id)
        return
      }
      case 'claim':
        for (const entry of this.#held(record.ids)) {
          entry.owner = record.owner
          entry.leaseUntil = record.until
        }
        return
      case 'done':
        for (const id of record.ids) this.#remove(id)
        return
      case 'release':
        for (const entry of this.#held(record.ids)) {
          delete entry.owner
          entry.leaseUntil = 0
          entry.nextAttemptAt = record.at
          if (record.error !== undefined) {
            entry.attempts += 1
            entry.lastError = record.error
          }
        }
        return
      case 'dead':
        for (const item of record.items) {
          const entry = this.#remove(item.id)
          if (entry === undefined) continue
          this.dead.set(item.id, { ...publicEntry(entry), deadAt: record.at, reasons: [...item.reasons] })
        }
        return
      case 'dead-entry':
        this.#bump(record.dead.id)
        this.dead.set(record.dead.id, record.dead)
        return
      case 'forget':
        for (const id of record.ids) this.dead.delete(id)
        return
    }
  }

  /** Every record that rebuilds this state: what the SQLite store writes when it rewrites its changes. */
  snapshot(): OutboxRecord[] {
    // Entries in the order they were added (so each order's queue replays as it was), dead letters in
    // the order they were set aside; the last id given goes first, so no id is given twice.
    return [
      { t: 'outbox', v: 1, sequence: this.sequence },
      ...[...this.entries.values()].map((entry): OutboxRecord => ({ t: 'entry', entry })),
      ...[...this.dead.values()].map((dead): OutboxRecord => ({ t: 'dead-entry', dead })),
    ]
  }

  add(news: readonly NewOutboxEntry[], now: number): OutboxEntry[] {
    return news.map((item) => {
      const waiting = this.references.get(keyOf(item.websiteId, item.event.purchase_reference))
      const held = waiting === undefined ? undefined : this.entries.get(waiting)
      if (held !== undefined) return publicEntry(held)
      const entry: HeldEntry = {
        id: String(this.sequence + 1),
        websiteId: item.websiteId,
        orderKey: item.orderKey,
        event: structuredClone(item.event),
        attempts: 0,
        enqueuedAt: now,
        nextAttemptAt: now,
        leaseUntil: 0,
      }
      this.#record({ t: 'entry', entry })
      return publicEntry(entry)
    })
  }

  claim(options: OutboxClaimOptions, now: number): OutboxEntry[] {
    const only = options.ids === undefined ? undefined : new Set(options.ids)
    // Every order's queue, or those of the entries of `only` (each once, in the order of `only`).
    const keys = only && new Set(this.#held([...only]).map((entry) => keyOf(entry.websiteId, entry.orderKey)))
    const queues = keys ? [...keys].map((key) => this.orders.get(key) as string[]) : this.orders.values()
    const taken: HeldEntry[] = []
    for (const queue of queues) {
      if (taken.length >= options.limit) break
      const head = this.entries.get(queue[0] as string)
      if (head === undefined || head.leaseUntil > now) continue
      for (const id of queue) {
        const entry = this.entries.get(id) as HeldEntry
        if (taken.length >= options.limit || entry.nextAttemptAt > now || (only && !only.has(id))) break
        taken.push(entry)
      }
    }
    const ids = taken.map((entry) => entry.id)
    if (ids.length > 0) this.#record({ t: 'claim', ids, owner: options.owner, until: now + options.leaseMs })
    return taken.map(publicEntry)
  }

  complete(ids: readonly string[]): void {
    const held = ids.filter((id) => this.entries.has(id))
    if (held.length > 0) this.#record({ t: 'done', ids: held })
  }

  release(owner: string, ids: readonly string[], options: OutboxReleaseOptions, now: number): void {
    const mine = ids.filter((id) => this.entries.get(id)?.owner === owner)
    const at = now + Math.max(0, options.delayMs)
    const error = options.error === undefined ? {} : { error: options.error }
    if (mine.length > 0) this.#record({ t: 'release', ids: mine, at, ...error })
  }

  deadLetter(items: readonly OutboxDeadLetterInput[], now: number): void {
    const held = items
      .filter((item) => this.entries.has(item.id))
      .map((item) => ({ id: item.id, reasons: item.reasons.map((reason) => ({ ...reason })) }))
    if (held.length > 0) this.#record({ t: 'dead', items: held, at: now })
  }

  removeDeadLetters(ids: readonly string[]): void {
    const held = ids.filter((id) => this.dead.has(id))
    if (held.length > 0) this.#record({ t: 'forget', ids: held })
  }

  deadLetters(): OutboxDeadLetter[] {
    return [...this.dead.values()].map((dead) => structuredClone(dead))
  }

  stats(now: number): OutboxStats {
    let leased = 0
    for (const entry of this.entries.values()) if (entry.leaseUntil > now) leased++
    let next: number | undefined
    for (const queue of this.orders.values()) {
      const head = this.entries.get(queue[0] as string) as HeldEntry
      const at = Math.max(head.nextAttemptAt, head.leaseUntil)
      if (next === undefined || at < next) next = at
    }
    return { pending: this.entries.size, leased, deadLetters: this.dead.size, nextAttemptAt: next }
  }

  #record(record: OutboxRecord): void {
    this.apply(record)
    this.changes?.push(record)
  }

  /** The entries of `ids` still held. */
  #held(ids: readonly string[]): HeldEntry[] {
    return ids.flatMap((id) => this.entries.get(id) ?? [])
  }

  #bump(id: string): void {
    const number = Number(id)
    if (Number.isSafeInteger(number) && number > this.sequence) this.sequence = number
  }

  #remove(id: string): HeldEntry | undefined {
    const entry = this.entries.get(id)
    if (entry === undefined) return undefined
    this.entries.delete(id)
    const key = keyOf(entry.websiteId, entry.orderKey)
    // Every entry held is in its order's queue.
    const queue = this.orders.get(key) as string[]
    queue.splice(queue.indexOf(id), 1)
    if (queue.length === 0) this.orders.delete(key)
    const reference = keyOf(entry.websiteId, entry.event.purchase_reference)
    if (this.references.get(reference) === id) this.references.delete(reference)
    return entry
  }
}
