import { type Issues, isHttpUrl, isIntegerIn, isIsoDate, isIsoDateTime, isObject } from '../base/validate.ts'
import { isDevelopment } from '../jsonld/warnings.ts'

/** How one query parameter is checked and written. */
export type Rule =
  /**
   * Identifiers: one string, a comma-separated string or an array; sent comma-separated, any number
   * of them. Whitespace is part of an identifier unless `noWhitespace`; a comma cannot be.
   */
  | { kind: 'values'; noWhitespace?: boolean }
  | { kind: 'text' }
  | { kind: 'boolean' }
  /** Star ratings 1 to 5: one or an array. */
  | { kind: 'rates' }
  /** Date operators: `{ gte, gt, lte, lt }`, sent as `name.gte=…`. */
  | { kind: 'dates' }
  | { kind: 'oneOf'; values: readonly string[] }
  /** Several of a fixed set: one or an array; sent comma-separated. */
  | { kind: 'someOf'; values: readonly string[] }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'url' }
  /** Field names of `sort`/`desc`; fields outside the operation's known ones are sent with a warning. */
  | { kind: 'sort' }
  | { kind: 'cursor' }

/** The query parameters of one operation. */
export interface OperationSchema {
  /** The operation's name in messages, such as `products.reviews.list`. */
  name: string
  rules: Record<string, Rule>
  required?: readonly string[]
  /** The fields the client knows this operation sorts by (the sandbox's list; the spec gives none). */
  sortable?: readonly string[]
}

/** The most values of one `GET /products/ratings` request (the spec's cap; the client splits longer lists). */
export const MAX_VALUES = 200
/** Operators of the date filters. */
export const DATE_OPERATORS = ['gte', 'gt', 'lte', 'lt'] as const

/** Parameters shared by every paged operation. */
export const PAGING_RULES: Record<string, Rule> = {
  cursor: { kind: 'cursor' },
  limit: { kind: 'integer', min: 1, max: 200 },
  sort: { kind: 'sort' },
  desc: { kind: 'sort' },
}

/** A list of strings from one string (split on commas) or an array; undefined when it is neither. */
export function valueList(value: unknown): string[] | undefined {
  if (typeof value === 'string') return value.split(',')
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return [...value]
  return undefined
}

function checkValues(name: string, value: unknown, rule: Extract<Rule, { kind: 'values' }>, issues: Issues) {
  const values = valueList(value)
  if (values === undefined) return issues.add(name, 'must be a string or an array of strings')
  if (values.length === 0) return issues.add(name, 'must not be empty')
  if (values.some((item) => item.trim() === '')) return issues.add(name, 'must not contain empty values')
  if (rule.noWhitespace && values.some((item) => /\s/.test(item))) {
    return issues.add(name, 'must not contain whitespace')
  }
  // The API separates values with commas, so an identifier holding one would be read as two.
  const withComma = values.find((item) => item.includes(','))
  if (withComma !== undefined) {
    return issues.add(
      name,
      `holds ${JSON.stringify(withComma)}: a comma separates values and cannot be sent inside one`,
    )
  }
  return values.join(',')
}

function dateValue(value: unknown): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString()
  if (typeof value === 'string' && (isIsoDate(value) || isIsoDateTime(value))) return value
  return undefined
}

/** Checks one parameter and returns the query entries it becomes (none when invalid). */
function write(name: string, value: unknown, rule: Rule, issues: Issues): [string, string][] {
  const one = (valid: boolean, message: string, text = String(value)): [string, string][] => {
    if (valid) return [[name, text]]
    issues.add(name, message)
    return []
  }
  switch (rule.kind) {
    case 'values': {
      const joined = checkValues(name, value, rule, issues)
      return joined === undefined ? [] : [[name, joined]]
    }
    case 'text':
      return one(typeof value === 'string' && value.trim() !== '', 'must be a non-empty string')
    case 'cursor':
      return one(
        typeof value === 'string' && value !== '',
        'must be a cursor taken from a page (a non-empty string)',
      )
    case 'boolean':
      return one(typeof value === 'boolean', 'must be true or false')
    case 'rates': {
      const rates = Array.isArray(value) ? value : [value]
      return one(
        rates.length > 0 && rates.every((rate) => isIntegerIn(rate, 1, 5)),
        'must be one or several integers from 1 to 5',
        rates.join(','),
      )
    }
    case 'dates': {
      if (!isObject(value) || Object.keys(value).length === 0) {
        return one(false, `must be an object with one or more of ${DATE_OPERATORS.join(', ')}`)
      }
      const entries: [string, string][] = []
      for (const [operator, bound] of Object.entries(value)) {
        if (bound === undefined) continue
        if (!(DATE_OPERATORS as readonly string[]).includes(operator)) {
          issues.add(`${name}.${operator}`, `is not a date operator; use ${DATE_OPERATORS.join(', ')}`)
          continue
        }
        const text = dateValue(bound)
        if (text === undefined)
          issues.add(`${name}.${operator}`, 'must be a valid ISO 8601 date or date-time')
        else entries.push([`${name}.${operator}`, text])
      }
      return entries
    }
    case 'oneOf':
      return one(
        typeof value === 'string' && rule.values.includes(value),
        `must be one of ${rule.values.join(', ')}`,
      )
    case 'someOf': {
      const values = valueList(value) ?? []
      return one(
        values.length > 0 && values.every((item) => rule.values.includes(item)),
        `must be one or several of ${rule.values.join(', ')}`,
        values.join(','),
      )
    }
    case 'integer':
      return one(isIntegerIn(value, rule.min, rule.max), `must be an integer from ${rule.min} to ${rule.max}`)
    case 'url':
      return one(isHttpUrl(value), 'must be an absolute http(s) URL')
    case 'sort':
      // Written by checkSort, which sees sort and desc together.
      return []
  }
}

/** Messages already given: an unknown sort field is reported once per process, in development. */
const sortWarnings = new Set<string>()

/**
 * Checks and writes `sort` and `desc`. `desc` without `sort` sorts by the `desc` fields, descending,
 * and is sent as `sort=F&desc=F`, the form the spec shows; with `sort`, every `desc` field must be in
 * it, since where another field would rank is not said.
 */
function checkSort(
  schema: OperationSchema,
  params: Record<string, unknown>,
  issues: Issues,
): [string, string][] {
  const known = schema.sortable ?? []
  const lists: { sort?: string[]; desc?: string[] } = {}
  for (const name of ['sort', 'desc'] as const) {
    const value = params[name]
    if (value === undefined || value === null) continue
    const fields = valueList(value)
    if (fields === undefined || fields.length === 0 || fields.some((field) => field.trim() === '')) {
      issues.add(name, 'must be one or several field names')
      continue
    }
    lists[name] = fields
    const unknown = fields.filter((field) => !known.includes(field))
    const message = `${schema.name}: ${name} names ${unknown.join(', ')}, outside the fields the client knows (${known.join(', ')}); sent as given for the API to decide`
    if (unknown.length > 0 && isDevelopment() && !sortWarnings.has(message)) {
      sortWarnings.add(message)
      console.warn(`[@verified-reviews/core] ${message}`)
    }
  }
  const desc = lists.desc ?? []
  const sort = lists.sort ?? desc
  const outside = desc.filter((field) => !sort.includes(field))
  if (outside.length > 0) {
    issues.add('desc', `names ${outside.join(', ')}, which must also be in sort (or leave sort out)`)
    return []
  }
  const entries: [string, string][] = []
  if (sort.length > 0) entries.push(['sort', sort.join(',')])
  if (desc.length > 0) entries.push(['desc', desc.join(',')])
  return entries
}

/** The rule of a parameter; own rules only, so `constructor` or `__proto__` is an unknown parameter. */
function ruleOf(schema: OperationSchema, name: string): Rule | undefined {
  return Object.hasOwn(schema.rules, name) ? schema.rules[name] : undefined
}

/**
 * Checks the parameters of one operation against its schema and writes its query. Every problem
 * goes to `issues`; unknown parameters are problems too, since the API would refuse them.
 */
export function buildQuery(schema: OperationSchema, params: unknown, issues: Issues): URLSearchParams {
  const query = new URLSearchParams()
  if (params !== undefined && !isObject(params)) {
    issues.add('params', `the parameters of ${schema.name} must be an object`)
    return query
  }
  const given = params ?? {}
  for (const name of schema.required ?? []) {
    if (given[name] === undefined || given[name] === null) issues.add(name, 'is required')
  }
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined || value === null) continue
    const rule = ruleOf(schema, name)
    if (rule === undefined) {
      issues.add(name, `is not a parameter of ${schema.name}`)
      continue
    }
    for (const [key, text] of write(name, value, rule, issues)) query.append(key, text)
  }
  if (schema.sortable !== undefined) {
    for (const [key, text] of checkSort(schema, given, issues)) query.append(key, text)
  }
  return query
}

/** Rule kinds written as comma-separated lists. */
const LIST_KINDS: ReadonlySet<Rule['kind']> = new Set(['values', 'rates', 'someOf', 'sort'])

/**
 * The query string of a request: every name and value percent-encoded (a space as `%20`, which every
 * server reads as a space, where `+` is only read so by form decoders), and the commas between the
 * values of a list left as they are, so that a server which splits before decoding reads them too.
 */
export function queryString(query: URLSearchParams, schema: OperationSchema): string {
  const parts: string[] = []
  for (const [name, value] of query) {
    const rule = ruleOf(schema, name)
    const text =
      rule !== undefined && LIST_KINDS.has(rule.kind)
        ? value.split(',').map(encodeURIComponent).join(',')
        : encodeURIComponent(value)
    parts.push(`${encodeURIComponent(name)}=${text}`)
  }
  return parts.join('&')
}
