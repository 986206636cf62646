import { HttpError } from './http-error.ts'
import { parseIsoDateTime, parseIsoDay } from './iso-date.ts'

function invalid(field: string, message: string): HttpError {
  return new HttpError(400, 'invalid_parameter', message, { field })
}

/**
 * Parses an ISO 8601 date (midnight UTC) or date-time (see `parseIsoDateTime`) to epoch milliseconds.
 * A `+` offset that arrived unencoded (read as a space) is taken as `+`.
 */
export function parseIsoDate(text: string): number | undefined {
  const value = text.replace(/ (\d{2}(?::?\d{2})?)$/, '+$1')
  return parseIsoDay(value) ?? parseIsoDateTime(value)
}

/**
 * The query string of one request, read parameter by parameter. Unknown parameters are refused
 * up front; every value read is also written in a canonical form, so that two queries asking for
 * the same thing (`review_rate=5,4` and `review_rate=4,5`) give the same fingerprint.
 */
export class Query {
  readonly #params: URLSearchParams
  readonly #canonical = new Map<string, string>()

  constructor(url: URL, allowed: readonly string[]) {
    this.#params = url.searchParams
    for (const name of new Set(this.#params.keys())) {
      if (!allowed.includes(name)) throw invalid(name, `unknown query parameter ${name}`)
    }
  }

  /** The parameters read, canonically, without `cursor`. */
  get canonical(): [string, string][] {
    return [...this.#canonical]
      .filter(([name]) => name !== 'cursor')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  }

  record(name: string, value: string): void {
    this.#canonical.set(name, value)
  }

  has(name: string): boolean {
    return this.#params.has(name)
  }

  /** A single-valued parameter: given once, not empty. */
  string(name: string): string | undefined {
    const values = this.#params.getAll(name)
    if (values.length === 0) return undefined
    if (values.length > 1) throw invalid(name, `${name} must be given once`)
    const value = values[0] as string
    if (value === '') throw invalid(name, `${name} must not be empty`)
    this.record(name, value)
    return value
  }

  /**
   * A comma-separated list (a repeated parameter adds to it), in the order given, repeats included,
   * never with an empty item. Items are trimmed unless `exact`: whitespace is part of an identifier.
   */
  items(name: string, exact = false): string[] | undefined {
    const values = this.#params.getAll(name)
    if (values.length === 0) return undefined
    const items = values
      .join(',')
      .split(',')
      .map((item) => (exact ? item : item.trim()))
    if (items.some((item) => item.trim() === ''))
      throw invalid(name, `${name} must be a comma separated list without empty items`)
    return items
  }

  /**
   * A comma-separated list of identifiers as a set (first occurrences, in order), taken exactly as
   * sent: the spec allows whitespace in identifiers, so ` SKU-1` is not `SKU-1`.
   */
  identifiers(name: string): string[] | undefined {
    const items = this.items(name, true)
    if (items === undefined) return undefined
    const unique = [...new Set(items)]
    this.record(name, [...unique].sort().join(','))
    return unique
  }

  /**
   * A comma-separated list of fixed values (ratings, filters) as a set (first occurrences, in order),
   * items trimmed, each passing `check`.
   */
  list(name: string, check?: (item: string) => boolean, expected?: string): string[] | undefined {
    const items = this.items(name)
    if (items === undefined) return undefined
    if (check) {
      const bad = items.find((item) => !check(item))
      if (bad !== undefined) throw invalid(name, `${name}: ${bad} is not ${expected ?? 'allowed'}`)
    }
    const unique = [...new Set(items)]
    this.record(name, [...unique].sort().join(','))
    return unique
  }

  integer(name: string, min: number, max: number, fallback: number): number {
    const text = this.#params.getAll(name)
    const message = `${name} must be an integer from ${min} to ${max}`
    if (text.length > 1) throw invalid(name, message)
    const value =
      text.length === 0 ? fallback : /^[0-9]+$/.test(text[0] as string) ? Number(text[0]) : Number.NaN
    if (!Number.isSafeInteger(value) || value < min || value > max) throw invalid(name, message)
    this.record(name, String(value))
    return value
  }

  boolean(name: string): boolean | undefined {
    const value = this.string(name)
    if (value === undefined) return undefined
    if (value !== 'true' && value !== 'false') throw invalid(name, `${name} must be true or false`)
    return value === 'true'
  }

  /** An ISO 8601 date or date-time, as epoch milliseconds. */
  date(name: string): number | undefined {
    const value = this.string(name)
    if (value === undefined) return undefined
    const ms = parseIsoDate(value)
    if (ms === undefined)
      throw invalid(name, `${name} must be an ISO 8601 date-time (2025-01-31T12:00:00Z) or date`)
    this.record(name, String(ms))
    return ms
  }
}
