import type { RequestOptions } from '../client.ts'
import { Page, PagePromise } from '../pagination.ts'
import { joinUrl } from './addresses.ts'
import { arrayOf, invalidAnswer } from './answer.ts'
import type { ClientContext } from './context.ts'
import { DEFAULT_LIMIT } from './cursors.ts'
import { send } from './http.ts'
import { findLink } from './link.ts'
import { buildQuery, type OperationSchema, queryString } from './query.ts'
import { Issues } from './validate.ts'

/** A paged operation of the Published API. */
export interface PagedOperation {
  schema: OperationSchema
  /** Path below the Published base address, such as `products/reviews`. */
  path: string
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
export function listPages<Item>(
  context: ClientContext,
  operation: PagedOperation,
  params: unknown,
  options: RequestOptions | undefined,
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

    const load = async (pageCursor: string | null): Promise<Page<Item>> => {
      const pageQuery = new URLSearchParams(query)
      if (pageCursor === null) pageQuery.delete('cursor')
      else pageQuery.set('cursor', pageCursor)
      const search = queryString(pageQuery, operation.schema)
      const url = search === '' ? base : `${base}?${search}`
      const answer = await send(context.settings, { service: context.published, method: 'GET', url }, options)
      const data = arrayOf<Item>(answer, 'published')
      const link = answer.headers.get('link')
      const next = cursorOf(findLink(link, 'next', url))
      const previous = cursorOf(findLink(link, 'prev', url))
      if (next === null || previous === null) {
        throw invalidAnswer(answer, 'published', 'The Link header names a page without a cursor parameter.')
      }
      for (const issued of [next, previous]) if (issued !== undefined) context.cursors.remember(issued, limit)
      return new Page<Item>({ data, nextCursor: next, previousCursor: previous, load })
    }
    return load(cursor)
  })
}
