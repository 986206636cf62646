import type {
  PurchaseEvent,
  PurchaseEventInput,
  PurchaseEventResult,
  SubmitPurchaseEventsParams,
} from '@verified-reviews/core'
import { freshReviewsClient } from './clients.ts'

/** What {@link submitPurchaseEvent} needs of a client: `createClient()` satisfies it. */
export interface PurchaseEventsClient {
  purchaseEvents: { submit(params: SubmitPurchaseEventsParams): Promise<PurchaseEventResult[]> }
}

/** Options of {@link submitPurchaseEvent}. */
export interface SubmitPurchaseEventOptions {
  /**
   * The website (uuid) the events belong to.
   * @default process.env.VERIFIED_REVIEWS_WEBSITE_ID
   */
  websiteId?: string
  /**
   * The client that submits.
   * @default the environment's client, without the Next.js data cache
   */
  client?: PurchaseEventsClient
}

/** What became of a submission: plain data, so a Server Action can return it to `useActionState`. */
export interface PurchaseEventSubmission {
  /** True when every event was created (or had been before: a repeated `purchase_reference` is kept once). */
  ok: boolean
  /** The events the service holds, in input order. */
  created: PurchaseEvent[]
  /**
   * What is wrong, by field. For a form or one event, fields are named as the form names them
   * (`consumer.email`); for several events, with their index (`events[2].consumer.email`).
   */
  errors: Record<string, string>
  /** What went wrong with the submission as a whole (the service could not be reached), for the reader. */
  message?: string
}

// Members the service takes as numbers or booleans; every other form value is text.
const NUMBERS = /^(?:price|products\[\d+\]\.price|solicitation_parameters\.(?:delay|delay_product))$/
const BOOLEANS = /^products\[\d+\]\.not_received$/
const PATH = /^[a-z_]+(?:\[\d{1,2}\])?(?:\.[a-z_]+(?:\[\d{1,2}\])?)*$/

type Tree = Record<string, unknown>

function set(tree: Tree, name: string, value: unknown): void {
  const steps = name.split('.').flatMap((part) => {
    const match = /^([a-z_]+)(?:\[(\d+)\])?$/.exec(part)
    return match?.[2] === undefined ? [part] : [match[1] as string, Number(match[2])]
  })
  let node: Record<string | number, unknown> = tree
  steps.forEach((step, index) => {
    if (index === steps.length - 1) {
      node[step] = value
      return
    }
    const next = steps[index + 1]
    node[step] ??= typeof next === 'number' ? [] : {}
    node = node[step] as Record<string | number, unknown>
  })
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/**
 * One purchase event from a form whose field names are the event's members, dotted
 * (`consumer.email`, `products[0].product_ref.sku`). Empty fields are left out, `price` and the delays
 * become numbers, `not_received` a boolean; `purchase_date` defaults to now and `sales_channel.channel`
 * to `online`. Fields Next.js adds to Server Action forms (`$ACTION_…`) are ignored.
 */
function eventFromForm(form: FormData): { event: Tree; errors: Record<string, string> } {
  const event: Tree = {}
  const errors: Record<string, string> = {}
  for (const [name, raw] of form.entries()) {
    if (name.startsWith('$')) continue
    if (!PATH.test(name)) {
      errors[name] = 'is not a member of a purchase event'
      continue
    }
    if (typeof raw !== 'string') {
      errors[name] = 'must be text, not a file'
      continue
    }
    const text = raw.trim()
    if (text === '') continue
    if (NUMBERS.test(name)) {
      const number = Number(text.replace(',', '.'))
      if (Number.isFinite(number)) set(event, name, number)
      else errors[name] = 'must be a number'
    } else if (BOOLEANS.test(name)) {
      set(event, name, text === 'on' || text === 'true')
    } else {
      set(event, name, text)
    }
  }
  event.purchase_date ??= now()
  if (typeof event.sales_channel !== 'object' || event.sales_channel === null) event.sales_channel = {}
  ;(event.sales_channel as Tree).channel ??= 'online'
  return { event, errors }
}

interface Issue {
  field: string
  message: string
}

function issuesOf(error: unknown): Issue[] | undefined {
  if (
    typeof error !== 'object' ||
    error === null ||
    (error as { name?: unknown }).name !== 'ValidationError'
  ) {
    return undefined
  }
  const issues = (error as { issues?: unknown }).issues
  return Array.isArray(issues) ? (issues as Issue[]) : undefined
}

/**
 * Sends purchase events from a Server Action, so that the customers are invited to review what they
 * bought. Takes the checkout form's `FormData` (fields named after the event's members, see the README),
 * one event, or several. Never throws: what is wrong comes back by field in `errors`, ready for
 * `useActionState`, and the event is not sent while anything is wrong.
 *
 * @example
 * 'use server'
 * export async function checkout(_state: PurchaseEventSubmission | null, form: FormData) {
 *   return submitPurchaseEvent(form)
 * }
 */
export async function submitPurchaseEvent(
  input: FormData | PurchaseEventInput | readonly PurchaseEventInput[],
  options: SubmitPurchaseEventOptions = {},
): Promise<PurchaseEventSubmission> {
  const several = Array.isArray(input)
  const fromForm = input instanceof FormData ? eventFromForm(input) : undefined
  if (fromForm !== undefined && Object.keys(fromForm.errors).length > 0) {
    return { ok: false, created: [], errors: fromForm.errors }
  }
  const events = (
    fromForm !== undefined ? [fromForm.event] : several ? input : [input]
  ) as readonly PurchaseEventInput[]
  // A single event's fields are named as in its form; several keep their index.
  const name = (index: number, field: string | undefined) =>
    several ? `events[${index}]${field === undefined ? '' : `.${field}`}` : (field ?? 'event')

  const websiteId = options.websiteId ?? process.env.VERIFIED_REVIEWS_WEBSITE_ID
  try {
    const results = await (options.client ?? freshReviewsClient()).purchaseEvents.submit({
      events,
      ...(websiteId === undefined || websiteId === '' ? {} : { websiteId }),
    })
    const errors: Record<string, string> = {}
    const created: PurchaseEvent[] = []
    results.forEach((result, index) => {
      if (result.status === 'created') created.push(result.event)
      else for (const reason of result.reasons) errors[name(index, reason.field)] ??= reason.message
    })
    return { ok: Object.keys(errors).length === 0, created, errors }
  } catch (error) {
    const issues = issuesOf(error)?.filter((issue) => issue.field.startsWith('events['))
    if (issues !== undefined && issues.length > 0) {
      const errors: Record<string, string> = {}
      for (const issue of issues) {
        const match = /^events\[(\d+)\]\.?(.*)$/.exec(issue.field)
        errors[name(Number(match?.[1] ?? 0), match?.[2] || undefined)] ??= issue.message
      }
      return { ok: false, created: [], errors }
    }
    // Missing credentials or website id, or a service out of reach: nothing the customer can fix.
    console.error('@verified-reviews/next: submitPurchaseEvent could not send the purchase events.', error)
    return {
      ok: false,
      created: [],
      errors: {},
      message: 'The purchase could not be sent for review invitations.',
    }
  }
}
