import type { Operation, OperationParams } from '../../types/operations.ts'
import type { RequestOptions } from '../../types/request-options.ts'
import { Issues } from '../base/validate.ts'
import type { Resumed } from '../cursor/continuation.ts'
import { DEFAULT_LIMIT } from '../cursor/cursor-limits.ts'
import { joinUrl } from '../settings/addresses.ts'
import { send } from '../transport/http.ts'
import { arrayOf, invalidAnswer } from '../transport/json-body.ts'
import { KEEP_RAW_JSON, rawJson } from '../transport/json-items.ts'
import { findLink } from '../transport/link-header.ts'
import type { ClientContext } from './client-context.ts'
import { optionsFor } from './operation-options.ts'
import { Page, PagePromise } from './pagination.ts'
import { buildQuery, type OperationSchema, queryString } from './query-string.ts'

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

    const fetchPage = async (pageQuery: URLSearchParams) => {
      const search = queryString(pageQuery, operation.schema)
      const url = search === '' ? base : `${base}?${search}`
      const answer = await send(context.settings, { service: context.published, method: 'GET', url }, options)
      const data = arrayOf<Item>(answer, 'published', keepRaw)
      const link = answer.headers.get('link')
      const next = cursorOf(findLink(link, 'next', url))
      const previous = cursorOf(findLink(link, 'prev', url))
      if (next === null || previous === null) {
        throw invalidAnswer(answer, 'published', 'The Link header names a page without a cursor parameter.')
      }
      return { data, next, previous }
    }

    const load = async (pageCursor: string | null): Promise<Page<Item>> => {
      const resumed = pageCursor === null ? undefined : operation.resume?.(given, pageCursor)
      if (resumed !== undefined) {
        const resumedIssues = new Issues()
        const resumedQuery = buildQuery(operation.schema, resumed.params, resumedIssues)
        resumedIssues.throwIfAny()
        const answer = await fetchPage(resumedQuery)
        const page = resumed.cut(answer.data, answer.next !== undefined)
        return new Page<Item>({ ...page, previousCursor: undefined, load })
      }
      const pageQuery = new URLSearchParams(query)
      if (pageCursor === null) pageQuery.delete('cursor')
      else pageQuery.set('cursor', pageCursor)
      const { data, next, previous } = await fetchPage(pageQuery)
      for (const issued of [next, previous]) if (issued !== undefined) context.cursors.remember(issued, limit)
      return new Page<Item>({ data, nextCursor: next, previousCursor: previous, load })
    }
    return load(cursor)
  })
}
