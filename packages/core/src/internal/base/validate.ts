import { ValidationError, type ValidationIssue, type ValidationIssueCode } from './errors.ts'

/** Throws a {@link ValidationError} naming `field` unless `valid`. */
export function check(valid: boolean, field: string, message: string): asserts valid {
  if (!valid) throw new ValidationError([{ field, message }])
}

/** Collects the problems of one input, then throws them together. */
export class Issues {
  readonly list: ValidationIssue[] = []

  /** Adds a problem; `code` for one a shopper can cause, so that it can be said in their language. */
  add(field: string, message: string, index?: number, code?: ValidationIssueCode): void {
    this.list.push({
      field,
      message,
      ...(index === undefined ? {} : { index }),
      ...(code === undefined ? {} : { code }),
    })
  }

  /** Adds each defined member of `params` that is not one of `members`. */
  unknownMembers(params: object, members: readonly string[]): void {
    for (const [key, value] of Object.entries(params)) {
      if (!members.includes(key) && value !== undefined) this.add(key, 'is not a parameter of this operation')
    }
  }

  /** The website uuid of a call: the one given, else the fallback (the client's, or `whence`'s). */
  websiteId(
    given: unknown,
    fallback: string | undefined,
    whence = 'the client option websiteId (VERIFIED_REVIEWS_WEBSITE_ID)',
  ): string {
    const websiteId = given ?? fallback
    if (websiteId === undefined) this.add('websiteId', `is required: pass it or set ${whence}`)
    else if (!isUuid(websiteId)) this.add('websiteId', 'must be a uuid')
    return websiteId as string
  }

  /** Throws a {@link ValidationError} when any problem was found. */
  throwIfAny(): void {
    const [first, ...rest] = this.list
    if (first !== undefined) throw new ValidationError([first, ...rest])
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
/**
 * ISO 8601 date-time, extended calendar format: minutes required; seconds, a fraction (`.` or `,`)
 * and an offset (`Z`, `±hh:mm`, `±hhmm`, `±hh`) optional.
 */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?)?$/

/** Whether year-month-day is a day of the calendar (no 2026-02-30). */
function isCalendarDay(year: string, month: string, day: string): boolean {
  const date = new Date(0)
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day))
  return date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day)
}

/** Whether `value` is an ISO 8601 date (`2026-01-31`). */
export function isIsoDate(value: string): boolean {
  const match = DATE.exec(value)
  return match !== null && isCalendarDay(match[1] as string, match[2] as string, match[3] as string)
}

/** The parts of an ISO 8601 date-time, as written (digits as strings). */
export interface IsoDateTimeParts {
  year: string
  month: string
  day: string
  hours: string
  minutes: string
  seconds: string | undefined
  /** The digits after the decimal point or comma. */
  fraction: string | undefined
  /** `Z`, `+02:00` (read from `+02:00`, `+0200` or `+02`), or undefined when no offset is given. */
  offset: string | undefined
}

/**
 * The parts of an ISO 8601 date-time in the extended calendar format (`2026-01-31T12:00Z`,
 * `2026-01-31T12:00:00.250+02:00`, `2026-01-31T12:00:00,5+0200`, `2026-01-31T12:00`), or undefined
 * for anything else. Seconds, their fraction and the offset are optional; hours 00 to 23, minutes and
 * seconds 00 to 59.
 */
export function parseIsoDateTime(value: string): IsoDateTimeParts | undefined {
  const match = DATE_TIME.exec(value)
  if (match === null) return undefined
  const [, year, month, day, hours, minutes, seconds, fraction, zulu, sign, offsetHours, offsetMinutes] =
    match as unknown as (string | undefined)[]
  const valid =
    isCalendarDay(year as string, month as string, day as string) &&
    Number(hours) < 24 &&
    Number(minutes) < 60 &&
    (seconds === undefined || Number(seconds) < 60) &&
    (offsetHours === undefined || Number(offsetHours) < 24) &&
    (offsetMinutes === undefined || Number(offsetMinutes) < 60)
  if (!valid) return undefined
  const offset = zulu ?? (sign === undefined ? undefined : `${sign}${offsetHours}:${offsetMinutes ?? '00'}`)
  // The groups of year to minutes always match.
  return { year, month, day, hours, minutes, seconds, fraction, offset } as IsoDateTimeParts
}

/** Whether `value` is an ISO 8601 date-time in the extended calendar format (see {@link parseIsoDateTime}). */
export function isIsoDateTime(value: string): boolean {
  return parseIsoDateTime(value) !== undefined
}

/** Whether `value` is a uuid. */
export function isUuid(value: unknown): value is string {
  return (
    typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
  )
}

/** Whether `value` is a plain object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The members of `value` when it is an object (an error of any class or realm, say), else none. */
export function membersOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
}

/** Whether `value` is an array of 1 to `max` references (non-empty strings), such as product references. */
export function isReferenceList(value: unknown, max = Number.POSITIVE_INFINITY): value is string[] {
  const fits = (item: unknown) => typeof item === 'string' && item !== ''
  return Array.isArray(value) && value.length > 0 && value.length <= max && value.every(fits)
}

/** Whether `value` is an integer from `min` to `max`. */
export function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
}

/** Whether `value` is an absolute http(s) URL. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}
