import { requireToken } from '../auth.ts'
import type { Route, SandboxState } from '../context.ts'
import { HttpError } from '../http-error.ts'
import { isIsoDateTime, isIsoDay } from '../iso-date.ts'
import type { StoredPurchaseEvent } from '../types.ts'

/** One problem of a submitted event, as listed in the `errors` member of a 400 answer. */
export interface EventProblem {
  index: number
  /** Path inside the event: `purchase_reference`, `consumer.email`, `products[0].price`. */
  field: string
  message: string
}

/** The most events one request may carry. */
export const MAX_EVENTS = 50

type Report = (field: string, message: string) => void
type Check = (value: unknown, field: string, report: Report) => void

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/

export function isUuid(value: string): boolean {
  return UUID.test(value)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function member(parent: string, name: string): string {
  return parent === '' ? name : `${parent}.${name}`
}

const string: Check = (value, field, report) => {
  if (typeof value !== 'string') report(field, `${field} must be a string`)
}

const boolean: Check = (value, field, report) => {
  if (typeof value !== 'boolean') report(field, `${field} must be a boolean`)
}

const amount: Check = (value, field, report) => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    report(field, `${field} must be a number greater than or equal to 0`)
  }
}

const count: Check = (value, field, report) => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    report(field, `${field} must be an integer greater than or equal to 0`)
  }
}

const reference: Check = (value, field, report) => {
  if (typeof value !== 'string' || [...value].length < 1 || [...value].length > 50) {
    report(field, `${field} must be a string of 1 to 50 characters`)
  }
}

// ISO 8601, as the spec says: seconds, their fraction and the offset are optional (2025-03-01T10:00Z).
const dateTime: Check = (value, field, report) => {
  if (typeof value !== 'string' || !isIsoDateTime(value)) {
    report(
      field,
      `${field} must be an ISO 8601 date-time, such as 2025-03-01T10:00Z or 2025-03-01T10:00:00+02:00`,
    )
  }
}

const date: Check = (value, field, report) => {
  if (typeof value !== 'string' || !isIsoDay(value)) report(field, `${field} must be a date YYYY-MM-DD`)
}

const email: Check = (value, field, report) => {
  if (typeof value !== 'string' || value.length > 254 || !EMAIL.test(value)) {
    report(field, `${field} must be an email address`)
  }
}

const uuid: Check = (value, field, report) => {
  if (typeof value !== 'string' || !isUuid(value)) report(field, `${field} must be a uuid`)
}

function nullable(check: Check): Check {
  return (value, field, report) => {
    if (value !== null) check(value, field, report)
  }
}

function arrayOf(item: Check): Check {
  return (value, field, report) => {
    if (!Array.isArray(value)) return report(field, `${field} must be an array`)
    value.forEach((element, i) => {
      item(element, `${field}[${i}]`, report)
    })
  }
}

/** An object with known members only (a misspelt member is reported, not silently dropped). */
function object(members: Record<string, Check>, required: readonly string[] = []): Check {
  return (value, field, report) => {
    if (!isRecord(value)) return report(field, `${field} must be an object`)
    for (const name of required) {
      if (!Object.hasOwn(value, name)) report(member(field, name), `${member(field, name)} is required`)
    }
    for (const [name, memberValue] of Object.entries(value)) {
      const check = Object.hasOwn(members, name) ? members[name] : undefined
      if (check) check(memberValue, member(field, name), report)
      else report(member(field, name), `${member(field, name)} is not a known member`)
    }
  }
}

const customField = object({ label: string, value: string, category: string }, ['label', 'value'])

const consumer = object({
  first_name: string,
  last_name: string,
  birth_date: date,
  email,
  phone: string,
  courtesy_title: string,
  custom_fields: arrayOf(customField),
  language: string,
  country: string,
  hide_personal_data: boolean,
  anonymize_data: boolean,
})

const product = object({
  product_ref: object({
    ean: string,
    sku: string,
    upc: string,
    isbn: string,
    jan: string,
    mpn: string,
    reference: string,
  }),
  name: string,
  brand: string,
  price: amount,
  not_received: boolean,
  custom_fields: arrayOf(customField),
  category: string,
})

function salesChannel(websiteId: string): Check {
  const shape = object({ channel: string, delivery_type: string, website_id: uuid, shop_id: string })
  return (value, field, report) => {
    shape(value, field, report)
    const given = isRecord(value) ? value.website_id : undefined
    if (typeof given === 'string' && isUuid(given) && given.toLowerCase() !== websiteId.toLowerCase()) {
      report(`${field}.website_id`, `${field}.website_id must be the website of the path`)
    }
  }
}

function purchaseEvent(websiteId: string): Check {
  return object(
    {
      purchase_reference: reference,
      purchase_date: dateTime,
      price: amount,
      consumer,
      products: nullable(arrayOf(product)),
      sales_channel: salesChannel(websiteId),
      solicitation_parameters: object({ delay: count, delay_product: count, purchase_event_type: string }),
      custom_fields: nullable(arrayOf(customField)),
    },
    ['purchase_reference', 'purchase_date', 'consumer', 'sales_channel'],
  )
}

/** Every problem of a body that is already known to be an array of events. */
export function validatePurchaseEvents(events: readonly unknown[], websiteId: string): EventProblem[] {
  const problems: EventProblem[] = []
  const check = purchaseEvent(websiteId)
  events.forEach((event, index) => {
    if (!isRecord(event)) {
      problems.push({ index, field: 'event', message: 'event must be an object' })
      return
    }
    check(event, '', (field, message) => {
      problems.push({ index, field, message })
    })
  })
  return problems
}

/** What the API answers for a stored event: everything but the sandbox's own bookkeeping. */
export function publicEvent(event: StoredPurchaseEvent): Omit<StoredPurchaseEvent, 'received_at'> {
  const { received_at: _receivedAt, ...answer } = event
  return answer
}

/** Builds the stored form of a valid event: request members echoed, generated ones added. */
export function toStoredEvent(
  event: Record<string, unknown>,
  id: string,
  websiteId: string,
  receivedAt: string,
): StoredPurchaseEvent {
  const consumerIn = event.consumer as Record<string, unknown>
  const stored: StoredPurchaseEvent = {
    id,
    website_id: websiteId,
    purchase_reference: event.purchase_reference as string,
    purchase_date: event.purchase_date as string,
    price: (event.price as number | undefined) ?? 0,
    purchase_event_status: 'CREATED',
    consumer: {
      ...consumerIn,
      hide_personal_data: (consumerIn.hide_personal_data as boolean | undefined) ?? false,
      anonymize_data: (consumerIn.anonymize_data as boolean | undefined) ?? false,
    },
    sales_channel: event.sales_channel as Record<string, unknown>,
    received_at: receivedAt,
  }
  if (Object.hasOwn(event, 'products')) stored.products = event.products as unknown[] | null
  if (Object.hasOwn(event, 'solicitation_parameters')) {
    stored.solicitation_parameters = event.solicitation_parameters as Record<string, unknown>
  }
  if (Object.hasOwn(event, 'custom_fields')) stored.custom_fields = event.custom_fields as unknown[] | null
  return stored
}

/**
 * Stores valid events, returning one stored event per submitted one. A purchase_reference this
 * website already submitted (earlier, or earlier in the same body) gives back the stored event.
 */
export function storePurchaseEvents(
  state: SandboxState,
  websiteId: string,
  events: readonly Record<string, unknown>[],
): StoredPurchaseEvent[] {
  const byReference = new Map<string, StoredPurchaseEvent>()
  for (const stored of state.purchaseEvents) {
    if (stored.website_id === websiteId) byReference.set(stored.purchase_reference, stored)
  }
  const receivedAt = new Date().toISOString()
  return events.map((event) => {
    const reference = event.purchase_reference as string
    const known = byReference.get(reference)
    if (known) return known
    const stored = toStoredEvent(event, state.uuid(), websiteId, receivedAt)
    state.purchaseEvents.push(stored)
    byReference.set(reference, stored)
    return stored
  })
}

/** A path parameter, percent-decoded; a malformed escape gives '', which names nothing. */
export function pathParam(raw: string | undefined): string {
  try {
    return decodeURIComponent(raw ?? '')
  } catch {
    return ''
  }
}

/** A uuid path parameter, percent-decoded; 400 naming `field` when it is not a uuid. */
export function uuidParam(raw: string | undefined, field: string): string {
  const value = pathParam(raw)
  if (!isUuid(value)) throw new HttpError(400, 'invalid_parameter', `${field} must be a uuid`, { field })
  return value
}

function pathWebsiteId(raw: string | undefined, state: SandboxState): string {
  const websiteId = uuidParam(raw, 'website_id')
  if (websiteId.toLowerCase() !== state.settings.websiteId.toLowerCase()) {
    throw new HttpError(403, 'forbidden', 'website_id is not the website of these credentials', {
      field: 'website_id',
    })
  }
  return state.settings.websiteId
}

function parseEvents(body: Buffer): unknown[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(body.toString('utf8'))
  } catch {
    // Not JSON: refused below like any body that is not an array.
  }
  if (!Array.isArray(parsed)) {
    throw new HttpError(400, 'invalid_body', 'the body must be a JSON array of purchase events', {
      field: 'body',
    })
  }
  if (parsed.length < 1 || parsed.length > MAX_EVENTS) {
    throw new HttpError(
      400,
      'invalid_body',
      `the body must hold 1 to ${MAX_EVENTS} purchase events, not ${parsed.length}`,
      { field: 'body' },
    )
  }
  return parsed
}

export const purchaseEventRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/purchase-event\/websites\/(?<website_id>[^/]+)\/purchase-events$/,
    operation: 'purchase-events.submit',
    rateLimited: true,
    handle(req, state, params) {
      requireToken(req, state, 'purchase-events', 'purchase-events')
      const websiteId = pathWebsiteId(params.website_id, state)
      const events = parseEvents(req.body)
      const problems = validatePurchaseEvents(events, websiteId)
      if (problems.length > 0) {
        const first = problems[0] as EventProblem
        const more = problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : ''
        throw new HttpError(400, 'invalid_body', `events[${first.index}]: ${first.message}${more}`, {
          field: 'body',
          details: problems,
        })
      }
      const stored = storePurchaseEvents(state, websiteId, events as Record<string, unknown>[])
      return { status: 201, body: stored.map(publicEvent) }
    },
  },
]
