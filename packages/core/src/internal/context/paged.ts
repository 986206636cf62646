import type { Operation, OperationParams } from '../../types/operations.ts'
import type { RequestOptions } from '../../types/request-options.ts'
import { nextTurn } from '../base/next-turn.ts'
import { Issues } from '../base/validate.ts'
import type { Resumed } from '../cursor/continuation.ts'
import { DEFAULT_LIMIT } from '../cursor/cursor-limits.ts'
import { joinUrl } from '../settings/addresses.ts'
import { type Outgoing, send } from '../transport/http.ts'
import { arrayOf, invalidAnswer } from '../transport/json-body.ts'
import { KEEP_RAW_JSON, rawJson } from '../transport/json-items.ts'
import { findLink } from '../transport/link-header.ts'
import type { ClientContext } from './client-context.ts'
import { optionsFor } from './operation-options.ts'
import { Page, PagePromise } from './pagination.ts'
import { buildQuery, type OperationSchema, queryString } from './query-string.ts'
import { READ_AHEAD } from './read-ahead.ts'

/** A paged operation of the Published API. */
export interface PagedOperation<O extends Operation, Item> {
  /** `name` is the operation's, as the `requestOptions` hook sees it. */
  schema: OperationSchema & { name: O }
  /** Path below the Published base address, such as `products/reviews`. */
  path: string
  /**
   * Takes the cursors of the client's own making (the continuation cursors of product reviews):
   * undefined for an API cursor.
   */
  resume?: (params: OperationParams[O], cursor: string) => Resumed<OperationParams[O], Item> | undefined
}

/** A page being fetched, and what the walk does once it asks for it. */
interface Loading<Item> {
  page: Promise<Page<Item>>
  /** The walk asked for the page: from now on, it may ask for its own next page. */
  handOver(): void
}

/** The cursor query parameter of a link target. */
function cursorOf(target: string | undefined): string | null | undefined {
  if (target === undefined) return undefined
  return new URL(target).searchParams.get('cursor')
}

/**
 * Runs a paged list operation. The parameters are checked before anything is sent; each next or
 * previous page is asked for with exactly the same parameters and the cursor from the `Link` header.
 */
export function listPages<Item, O extends Operation>(
  context: ClientContext,
  operation: PagedOperation<O, Item>,
  params: OperationParams[O] | undefined,
  callOptions: RequestOptions | undefined,
): PagePromise<Item> {
  return new PagePromise<Item>(async () => {
    const issues = new Issues()
    const query = buildQuery(operation.schema, params, issues)
    const limit = Number(query.get('limit') ?? DEFAULT_LIMIT)
    const cursor = query.get('cursor')
    if (cursor !== null) {
      const issuedWith = context.cursors.limitOf(cursor)
      if (issuedWith !== undefined && issuedWith !== limit) {
        issues.add(
          'cursor',
          `was issued with limit ${issuedWith}; send it with limit ${issuedWith}, not ${limit}`,
        )
      }
    }
    issues.throwIfAny()
    const base = joinUrl(context.addresses.publishedUrl, operation.path)

    const given = params ?? ({} as OperationParams[O])
    const options = optionsFor(context, operation.schema.name, given, callOptions)
    // A sync's pages: each item's JSON is kept for the store, which writes it as the API sent it.
    const keepRaw =
      (callOptions as { [KEEP_RAW_JSON]?: boolean } | undefined)?.[KEEP_RAW_JSON] === true
        ? (item: unknown, json: Uint8Array) => rawJson.set(item as object, json)
        : undefined

    // A walk of every page (a full sync): each next page is asked for from its page's headers.
    const ahead = (callOptions as { [READ_AHEAD]?: boolean } | undefined)?.[READ_AHEAD] === true

    const fetchPage = async (pageQuery: URLSearchParams, onNext?: (cursor: string) => boolean) => {
      const search = queryString(pageQuery, operation.schema)
      const url = search === '' ? base : `${base}?${search}`
      const out: Outgoing = { service: context.published, method: 'GET', url }
      if (onNext !== undefined) {
        out.onHeaders = (headers) => {
          const next = cursorOf(findLink(headers.get('link'), 'next', url))
          // A turn of the event loop once it is asked for: the request goes out before this page's body
          // is parsed and the walk stores its reviews, which hold the thread.
          if (typeof next === 'string' && onNext(next)) return nextTurn()
        }
      }
      const answer = await send(context.settings, out, options)
      const data = arrayOf<Item>(answer, 'published', keepRaw)
      const link = answer.headers.get('link')
      const next = cursorOf(findLink(link, 'next', url))
      const previous = cursorOf(findLink(link, 'prev', url))
      if (next === null || previous === null) {
        throw invalidAnswer(answer, 'published', 'The Link header names a page without a cursor parameter.')
      }
      return { data, next, previous }
    }

    const fetchLoaded = async (
      pageCursor: string | null,
      onNext?: (cursor: string) => boolean,
    ): Promise<Page<Item>> => {
      const resumed = pageCursor === null ? undefined : operation.resume?.(given, pageCursor)
      if (resumed !== undefined) {
        const resumedIssues = new Issues()
        const resumedQuery = buildQuery(operation.schema, resumed.params, resumedIssues)
        resumedIssues.throwIfAny()
        // Its next cursor is the one `cut` makes, not the API's: never asked for ahead.
        const answer = await fetchPage(resumedQuery)
        const page = resumed.cut(answer.data, answer.next !== undefined)
        return new Page<Item>({ ...page, previousCursor: undefined, load })
      }
      const pageQuery = new URLSearchParams(query)
      if (pageCursor === null) pageQuery.delete('cursor')
      else pageQuery.set('cursor', pageCursor)
      const { data, next, previous } = await fetchPage(pageQuery, onNext)
      for (const issued of [next, previous]) if (issued !== undefined) context.cursors.remember(issued, limit)
      return new Page<Item>({ data, nextCursor: next, previousCursor: previous, load })
    }

    /** Pages asked for ahead of the walk, by cursor, until it asks for them (each once). */
    const early = new Map<string, Loading<Item>>()

    // A page asks for its next one once both are true: its headers named it, and the walk asked for the
    // page itself (a page asked for ahead waits for that), so only one page is ever ahead of the walk.
    const start = (pageCursor: string | null, asked: boolean): Loading<Item> => {
      let handedOver = asked
      let nextCursor: string | undefined
      let nextAsked = false
      // Whether it asked for the next page now.
      const askNext = (): boolean => {
        if (!handedOver || nextCursor === undefined || nextAsked) return false
        nextAsked = true
        if (early.has(nextCursor)) return false
        const loading = start(nextCursor, false)
        // Its failure is the walk's to see when it asks for the page; unasked, it is dropped.
        loading.page.catch(() => undefined)
        early.set(nextCursor, loading)
        return true
      }
      const onNext = ahead
        ? (cursor: string) => {
            nextCursor ??= cursor
            return askNext()
          }
        : undefined
      return {
        page: fetchLoaded(pageCursor, onNext),
        handOver: () => {
          handedOver = true
          askNext()
        },
      }
    }

    const load = (pageCursor: string | null): Promise<Page<Item>> => {
      const loading = pageCursor === null ? undefined : early.get(pageCursor)
      if (loading === undefined) return start(pageCursor, true).page
      early.delete(pageCursor as string)
      loading.handOver()
      return loading.page
    }
    return load(cursor)
  })
}
