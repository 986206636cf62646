/** How many calls may be under way, how long and how many requests may wait for one. */
export interface CallSlotLimits {
  maxConcurrency: number
  /** Milliseconds a request waits for a slot; 0 refuses it at once. */
  maxWait: number
  /** Most requests waiting at once; one more is refused at once. */
  maxWaiting: number
}

/** A request waiting for a slot: a node of a doubly linked list, so that a wait that ends leaves it in O(1). */
interface Waiter {
  hand: () => void
  previous: Waiter | undefined
  next: Waiter | undefined
}

/**
 * The slots of the calls the reviews endpoint has under way (for one client), and the requests waiting
 * for one, first come first served. A slot that is freed goes straight to the first waiter. A waiter
 * whose wait is over leaves the queue in constant time: with `splice(indexOf)`, 100,000 waiters timing
 * out together stalled the event loop for seconds (issue 19).
 */
export class CallSlots {
  #inUse = 0
  #first: Waiter | undefined
  #last: Waiter | undefined
  #waiting = 0

  /** Requests waiting for a slot now. */
  get waiting(): number {
    return this.#waiting
  }

  /**
   * A slot, at once or once a call under way ends within `maxWait` ms: true when it came, false when
   * the wait ran out or `maxWaiting` requests were already waiting (then at once).
   */
  acquire(limits: CallSlotLimits): Promise<boolean> {
    if (this.#inUse < limits.maxConcurrency) {
      this.#inUse++
      return Promise.resolve(true)
    }
    if (limits.maxWait === 0 || this.#waiting >= limits.maxWaiting) return Promise.resolve(false)
    return new Promise((resolve) => {
      const waiter: Waiter = {
        hand: () => {
          clearTimeout(timer)
          resolve(true)
        },
        previous: this.#last,
        next: undefined,
      }
      const timer = setTimeout(() => {
        this.#unlink(waiter)
        resolve(false)
      }, limits.maxWait)
      if (this.#last === undefined) this.#first = waiter
      else this.#last.next = waiter
      this.#last = waiter
      this.#waiting++
    })
  }

  /** Ends a call: its slot goes to the first request waiting, else it is free. */
  release(): void {
    const next = this.#first
    if (next === undefined) {
      this.#inUse--
      return
    }
    this.#unlink(next)
    next.hand()
  }

  #unlink(waiter: Waiter): void {
    if (waiter.previous === undefined) this.#first = waiter.next
    else waiter.previous.next = waiter.next
    if (waiter.next === undefined) this.#last = waiter.previous
    else waiter.next.previous = waiter.previous
    waiter.previous = undefined
    waiter.next = undefined
    this.#waiting--
  }
}
