import { type Issues, isHttpUrl, isIntegerIn, isIsoDate, isIsoDateTime, isObject } from './validate.ts'

/** How one query parameter is checked and written. */
export type Rule =
  /** Identifiers: one string, a comma-separated string or an array; sent comma-separated. */
  | { kind: 'values'; noWhitespace?: boolean; max?: number }
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
  /** Field names of `sort`/`desc`, checked against the operation's sortable fields. */
  | { kind: 'sort' }
  | { kind: 'cursor' }

/** The query parameters of one operation. */
export interface OperationSchema {
  /** The operation's name in messages, such as `products.reviews.list`. */
  name: string
  rules: Record<string, Rule>
  required?: readonly string[]
  sortable?: readonly string[]
}

/** The most values one multi-value parameter may carry when the client does not split it up. */
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
  const max = rule.max ?? MAX_VALUES
  if (values.length > max) return issues.add(name, `takes at most ${max} values, got ${values.length}`)
  return values.join(',')
}

function dateValue(value: unknown): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString()
  if (typeof value === 'string' && (isIsoDate(value) || isIsoDateTime(value))) return value
  return undefined
}

/** Checks one parameter and returns the query entries it becomes (none when invalid). */
function write(name: string, value: unknown, rule: Rule, issues: Issues): [string, string][] {
  switch (rule.kind) {
    case 'values': {
      const joined = checkValues(name, value, rule, issues)
      return joined === undefined ? [] : [[name, joined]]
    }
    case 'text':
      if (typeof value !== 'string' || value.trim() === '') {
        issues.add(name, 'must be a non-empty string')
        return []
      }
      return [[name, value]]
    case 'cursor':
      if (typeof value !== 'string' || value === '') {
        issues.add(name, 'must be a cursor taken from a page (a non-empty string)')
        return []
      }
      return [[name, value]]
    case 'boolean':
      if (typeof value !== 'boolean') {
        issues.add(name, 'must be true or false')
        return []
      }
      return [[name, String(value)]]
    case 'rates': {
      const rates = Array.isArray(value) ? value : [value]
      if (rates.length === 0 || !rates.every((rate) => isIntegerIn(rate, 1, 5))) {
        issues.add(name, 'must be one or several integers from 1 to 5')
        return []
      }
      return [[name, rates.join(',')]]
    }
    case 'dates': {
      if (!isObject(value) || Object.keys(value).length === 0) {
        issues.add(name, `must be an object with one or more of ${DATE_OPERATORS.join(', ')}`)
        return []
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
      if (typeof value !== 'string' || !rule.values.includes(value)) {
        issues.add(name, `must be one of ${rule.values.join(', ')}`)
        return []
      }
      return [[name, value]]
    case 'someOf': {
      const values = valueList(value)
      if (
        values === undefined ||
        values.length === 0 ||
        !values.every((item) => rule.values.includes(item))
      ) {
        issues.add(name, `must be one or several of ${rule.values.join(', ')}`)
        return []
      }
      return [[name, values.join(',')]]
    }
    case 'integer':
      if (!isIntegerIn(value, rule.min, rule.max)) {
        issues.add(name, `must be an integer from ${rule.min} to ${rule.max}`)
        return []
      }
      return [[name, String(value)]]
    case 'url':
      if (!isHttpUrl(value)) {
        issues.add(name, 'must be an absolute http(s) URL')
        return []
      }
      return [[name, value]]
    case 'sort':
      // Written by checkSort, which sees sort and desc together.
      return []
  }
}

function checkSort(
  schema: OperationSchema,
  params: Record<string, unknown>,
  issues: Issues,
): [string, string][] {
  const sortable = schema.sortable ?? []
  const entries: [string, string][] = []
  const lists: Record<string, string[]> = {}
  for (const name of ['sort', 'desc'] as const) {
    const value = params[name]
    if (value === undefined || value === null) continue
    const fields = valueList(value)
    if (fields === undefined || fields.length === 0 || fields.some((field) => field === '')) {
      issues.add(name, 'must be one or several field names')
      continue
    }
    const unknown = fields.filter((field) => !sortable.includes(field))
    if (unknown.length > 0) {
      issues.add(name, `cannot sort by ${unknown.join(', ')}; sortable fields: ${sortable.join(', ')}`)
      continue
    }
    lists[name] = fields
    entries.push([name, fields.join(',')])
  }
  const outside = (lists.desc ?? []).filter((field) => !(lists.sort ?? []).includes(field))
  if (outside.length > 0) issues.add('desc', `names ${outside.join(', ')}, which must also be in sort`)
  return entries
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
    const rule = schema.rules[name]
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
