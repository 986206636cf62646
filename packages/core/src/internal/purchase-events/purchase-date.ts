import { parseIsoDateTime } from '../base/validate.ts'

/** What `purchase_date` may be given as, in the words of the error that refuses anything else. */
export const PURCHASE_DATE_FORMS =
  'a date-time with at least the minutes (2026-03-01T10:00Z, 2026-03-01T10:00:00.5+02:00, 2026-03-01T10:00) or a Date'

// Across realms (a Date of another iframe or vm context) `instanceof Date` is false.
function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]'
}

/**
 * `purchase_date` as it is sent: RFC 3339, the strict profile of ISO 8601 that services parse (see
 * `PurchaseEventInput.purchase_date`); a string keeps its offset (`+0200` becomes `+02:00`) or is
 * taken as UTC. Undefined for what is no such date-time (a year beyond 9999 included).
 */
export function purchaseDateOf(value: unknown): string | undefined {
  if (isDate(value)) {
    const time = value.getTime()
    const year = Number.isNaN(time) ? Number.NaN : value.getUTCFullYear()
    // toISOString writes years outside 0000..9999 as ±YYYYYY, which RFC 3339 has no room for.
    return year >= 0 && year <= 9999 ? value.toISOString() : undefined
  }
  if (typeof value !== 'string') return undefined
  const parts = parseIsoDateTime(value)
  if (parts === undefined) return undefined
  const { year, month, day, hours, minutes, seconds, fraction, offset } = parts
  const millis = fraction === undefined ? '' : `.${fraction.slice(0, 3).padEnd(3, '0')}`
  return `${year}-${month}-${day}T${hours}:${minutes}:${seconds ?? '00'}${millis}${offset ?? 'Z'}`
}
