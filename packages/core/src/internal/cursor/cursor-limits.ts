/** How many cursors a client remembers; the oldest are forgotten first. */
const CAPACITY = 10_000

/** The page size the API uses when no limit is given. */
export const DEFAULT_LIMIT = 10

/**
 * Remembers which limit issued each cursor the client has seen, so that a cursor sent back with
 * another limit is caught before the API refuses it.
 */
export class CursorLimits {
  readonly #limits = new Map<string, number>()

  remember(cursor: string, limit: number): void {
    this.#limits.delete(cursor)
    this.#limits.set(cursor, limit)
    if (this.#limits.size > CAPACITY) {
      const oldest = this.#limits.keys().next().value
      if (oldest !== undefined) this.#limits.delete(oldest)
    }
  }

  /** The limit that issued `cursor`, when this client saw it. */
  limitOf(cursor: string): number | undefined {
    return this.#limits.get(cursor)
  }
}
