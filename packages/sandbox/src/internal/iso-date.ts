/**
 * ISO 8601 in the extended calendar format, the one grammar the sandbox reads dates with (the date
 * filters of the Published API and `purchase_date`): a date `2025-03-01`, or a date-time with minutes
 * and optional seconds, fraction (`.` or `,`) and offset (`Z`, `±hh:mm`, `±hhmm`, `±hh`).
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|([+-])(\d{2})(?::?(\d{2}))?)?$/

/** Epoch milliseconds of a calendar day and time of day (UTC), or undefined when it does not exist. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0) {
  if (month < 1 || month > 12 || day < 1) return undefined
  if (hour > 23 || minute > 59 || second > 59) return undefined
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  if (date.getUTCDate() !== day) return undefined
  date.setUTCHours(hour, minute, second, ms)
  return date.getTime()
}

/**
 * Epoch milliseconds of an ISO 8601 date-time; one without an offset is taken as UTC (**choice**:
 * the spec names no zone). Undefined for anything else, a plain date included.
 */
export function parseIsoDateTime(value: string): number | undefined {
  const m = DATE_TIME.exec(value)
  if (!m) return undefined
  const [, year, month, day, hour, minute, second, fraction, zone, sign, offsetHour, offsetMinute] = m
  const ms = fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000)
  const at = utc(
    Number(year),
    Number(month),
    Number(day),
    Number(hour),
    Number(minute),
    Number(second ?? 0),
    ms,
  )
  if (at === undefined) return undefined
  if (zone === undefined || zone === 'Z') return at
  const hours = Number(offsetHour)
  const minutes = Number(offsetMinute ?? 0)
  if (hours > 23 || minutes > 59) return undefined
  return at - (sign === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000
}

/** Epoch milliseconds of midnight UTC of an ISO 8601 date `2025-03-01`. */
export function parseIsoDay(value: string): number | undefined {
  const m = DATE.exec(value)
  return m ? utc(Number(m[1]), Number(m[2]), Number(m[3])) : undefined
}

/** Whether `value` is an ISO 8601 date-time (see {@link parseIsoDateTime}). */
export function isIsoDateTime(value: string): boolean {
  return parseIsoDateTime(value) !== undefined
}

/** Whether `value` is a calendar date `YYYY-MM-DD`. */
export function isIsoDay(value: string): boolean {
  return parseIsoDay(value) !== undefined
}
