/**
 * One identifier, several in an array, or several in one comma-separated string. Whitespace is part
 * of an identifier; a comma cannot be (the API reads it as a separator).
 */
export type Values = string | readonly string[]

/** Parameters shared by every paged list operation. */
export interface ListParams<SortField extends string> {
  /**
   * Where to start: a cursor from `page.nextCursor`/`page.previousCursor`. It must be sent with
   * the limit it was issued with; the client checks that for cursors it has seen.
   * @default undefined (the first page)
   */
  cursor?: string
  /**
   * Items per page, 1 to 200. A full walk is fastest with 200.
   * @default 10 (the API's default)
   */
  limit?: number
  /**
   * Fields to sort by, ascending unless also named in `desc`. The type names the fields the client
   * knows; the spec gives no full list, so another name (cast) is sent as given, with a warning in
   * development; the API decides (the sandbox answers 400 with its list).
   * @default the API's order (`publish_date` for reviews)
   */
  sort?: SortField | readonly SortField[]
  /**
   * Fields sorted descending. With `sort`, each must also be in `sort`; without it, the list is sorted
   * by these fields, descending (sent as `sort=F&desc=F`).
   * @default undefined
   */
  desc?: SortField | readonly SortField[]
}

/**
 * A date range filter: ISO 8601 dates or date-times (or `Date`s), combined with AND.
 * `{ gte: '2026-01-01', lt: '2026-02-01' }` is sent as `name.gte=…&name.lt=…`.
 */
export interface DateFilter {
  gte?: string | Date
  gt?: string | Date
  lte?: string | Date
  lt?: string | Date
}
