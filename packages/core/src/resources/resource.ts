import type { ClientContext } from '../internal/context/client-context.ts'

/**
 * What every resource of a client holds: the context its client shares, kept out of sight of logs.
 * @internal
 */
export abstract class Resource {
  readonly #context: ClientContext

  /** @internal */
  constructor(context: ClientContext) {
    this.#context = context
  }

  /** @internal */
  protected get context(): ClientContext {
    return this.#context
  }
}
