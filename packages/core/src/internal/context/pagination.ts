import { VerifiedReviewsError } from '../base/errors.ts'

/** What a {@link Page} is made of. @internal */
export interface PageInit<Item> {
  data: Item[]
  nextCursor: string | undefined
  previousCursor: string | undefined
  /** Fetches the page a cursor points at, with the same parameters. */
  load: (cursor: string) => Promise<Page<Item>>
}

/**
 * One page of a list operation. `for await (const item of page)` walks the items of this page and
 * of every page after it.
 */
export class Page<Item> implements AsyncIterable<Item> {
  /** The items of this page, in the API's order. */
  readonly data: Item[]
  /** The cursor of the next page (from `Link: rel="next"`); undefined on the last page. */
  readonly nextCursor: string | undefined
  /** The cursor of the previous page (from `Link: rel="prev"`); undefined on the first page. */
  readonly previousCursor: string | undefined
  readonly #load: (cursor: string) => Promise<Page<Item>>

  /** @internal Pages come from list operations. */
  constructor(init: PageInit<Item>) {
    this.data = init.data
    this.nextCursor = init.nextCursor
    this.previousCursor = init.previousCursor
    this.#load = init.load
  }

  /** Whether a next page exists. */
  hasNextPage(): boolean {
    return this.nextCursor !== undefined
  }

  /** Fetches the next page with the same parameters. Throws on the last page. */
  getNextPage(): Promise<Page<Item>> {
    if (this.nextCursor === undefined) {
      return Promise.reject(new VerifiedReviewsError('This is the last page: there is no next page.'))
    }
    return this.#load(this.nextCursor)
  }

  /** Whether a previous page exists. */
  hasPreviousPage(): boolean {
    return this.previousCursor !== undefined
  }

  /** Fetches the previous page with the same parameters. Throws on the first page. */
  getPreviousPage(): Promise<Page<Item>> {
    if (this.previousCursor === undefined) {
      return Promise.reject(new VerifiedReviewsError('This is the first page: there is no previous page.'))
    }
    return this.#load(this.previousCursor)
  }

  /** This page, then every next page, fetched one after the other as the loop asks. */
  async *iterPages(): AsyncGenerator<Page<Item>, void, undefined> {
    let page: Page<Item> = this
    yield page
    while (page.hasNextPage()) {
      page = await page.getNextPage()
      yield page
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.iterPages()) yield* page.data
  }
}

/**
 * The result of a list operation: await it for the first {@link Page}, or walk every item of
 * every page with `for await`. The first request is sent when the call is made.
 */
export class PagePromise<Item> extends Promise<Page<Item>> implements AsyncIterable<Item> {
  // Derived promises (then, catch, finally) are plain promises, not page promises.
  static override get [Symbol.species]() {
    return Promise
  }

  /** @internal Page promises come from list operations. */
  constructor(load: () => Promise<Page<Item>>) {
    // A synchronous throw of `load` rejects too: the executor's throws do.
    super((resolve, reject) => {
      load().then(resolve, reject)
    })
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    const first = await this
    yield* first
  }
}
