import {
  type PurchaseEvent,
  type PurchaseEventInput,
  type PurchaseEventRejection,
  type PurchaseEventResult,
  readEnvironment,
  type SubmitPurchaseEventsParams,
} from '@verified-reviews/core'
import { fieldErrorIn, t } from '@verified-reviews/core/i18n'
import { type OutboxClient, type OutboxStore, sendPurchaseEvents } from '@verified-reviews/core/outbox'
import { freshReviewsClient } from './clients.ts'
import { LOG_PREFIX } from './internal/log-prefix.ts'

/** What {@link submitPurchaseEvent} needs of a client: `createClient()` satisfies it. */
export interface PurchaseEventsClient {
  purchaseEvents: { submit(params: SubmitPurchaseEventsParams): Promise<PurchaseEventResult[]> }
}

/** Options of {@link submitPurchaseEvent}. */
export interface SubmitPurchaseEventOptions {
  /**
   * The website (uuid) the events belong to.
   * @default VERIFIED_REVIEWS_WEBSITE_ID, read by the core's `readEnvironment`
   */
  websiteId?: string
  /**
   * The client that submits.
   * @default the environment's client, without the Next.js data cache
   */
  client?: PurchaseEventsClient
  /**
   * An outbox (`createSqliteOutboxStore` of `@verified-reviews/core/outbox` on one server, the Redis
   * store of `@verified-reviews/redis` on several): the events are recorded in it durably before they
   * are sent, and what the service does not take now (down, 429, 5xx) is kept, listed in `queued`,
   * and sent later by the drain route (`createOutboxDrainRoute`) instead of being lost.
   * @default undefined (sent directly: an event the service does not take is lost)
   */
  outbox?: OutboxStore
  /**
   * The language of the answer's `message` and of the field errors a shopper can cause (see `errors`):
   * a language tag, resolved to the closest of the 13 of the review components (`fr-BE` gives French),
   * English when none is close.
   * @default the first event's `consumer.language`, else English
   */
  locale?: string
}

/** What became of a submission: plain data, so a Server Action can return it to `useActionState`. */
export interface PurchaseEventSubmission {
  /** True when every event was created (or had been before: a repeated `purchase_reference` is kept once). */
  ok: boolean
  /** The events the service holds, in input order. */
  created: PurchaseEvent[]
  /**
   * What is wrong, by field. For one event, fields are named as a form names them (`consumer.email`,
   * see `purchaseEventFromForm`); for several events, with their index (`events[2].consumer.email`).
   * What the shopper can cause (a field left empty, an e-mail address or a date that is none, a
   * negative price) is in the language of `message`; what only the code can cause (a member that is
   * no member, a value of the wrong type) is in English, and so are the service's own reasons for
   * refusing an event, passed on as it gives them.
   */
  errors: Record<string, string>
  /**
   * What to tell the shopper, in the language of the `locale` option, for a form to show as it is
   * (`role="status"`): thanks when `ok`; else that fields need correcting, or that the purchase could
   * not be registered (the service could not be reached, or a setting is missing, without an outbox).
   * `submitPurchaseEvent` always sets it; optional so that an action can answer its own checks without.
   */
  message?: string
  /**
   * With the `outbox` option: the `purchase_reference` of the events kept in the outbox because the
   * service did not take them now; the drain route sends them. They count as sent for `ok`.
   */
  queued?: string[]
}

function firstError(errors: Map<string, string>, field: string, message: string): void {
  if (!errors.has(field)) errors.set(field, message)
}

interface Issue {
  field: string
  message: string
  code?: unknown
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
 * bought. Build each event on the server from the confirmed order (reference, date, products, prices
 * from your own records); take from the checkout form only what the shopper enters, with
 * `purchaseEventFromForm` (of `@verified-reviews/core`, re-exported by this package). A `FormData` is
 * refused. Never throws: what is wrong comes back by field in `errors`, ready for `useActionState`, and
 * nothing is sent while anything is wrong; `message` says the outcome to the shopper, in their language.
 * With the `outbox` option, the events are recorded durably first and what the service does not take
 * now is kept for the drain route (`createOutboxDrainRoute`): a missing website id or credentials
 * included, which are logged and wait, with their reason, until they are set.
 *
 * @example
 * 'use server'
 * export async function checkout(_state: PurchaseEventSubmission | null, form: FormData) {
 *   const shopper = purchaseEventFromForm(form) // consumer.first_name, consumer.email…
 *   if (Object.keys(shopper.errors).length > 0) return { ok: false, created: [], errors: shopper.errors }
 *   const order = await confirmOrder(cart(), shopper.values.consumer) // your shop, on the server
 *   return submitPurchaseEvent(purchaseEventOf(order))
 * }
 */
export async function submitPurchaseEvent(
  input: PurchaseEventInput | readonly PurchaseEventInput[],
  options: SubmitPurchaseEventOptions = {},
): Promise<PurchaseEventSubmission> {
  const given: unknown = input
  const several = Array.isArray(given)
  const events = (several ? given : [given]) as readonly PurchaseEventInput[]
  const language = (events[0] as { consumer?: { language?: unknown } } | undefined)?.consumer?.language
  const locale = options.locale ?? (typeof language === 'string' ? language : 'en')
  const failed = (errors: Record<string, string> = {}): PurchaseEventSubmission => ({
    ok: false,
    created: [],
    errors,
    message: t(locale, Object.keys(errors).length > 0 ? 'purchaseFixFields' : 'purchaseNotRegistered'),
  })
  if (given instanceof FormData) {
    // A form is written by whoever sends it: an event read from one would be forgeable.
    console.error(
      `${LOG_PREFIX} submitPurchaseEvent takes events built on the server from the confirmed order, not a FormData; read the shopper's own fields with purchaseEventFromForm(form).`,
    )
    return failed()
  }
  // A single event's fields are named as in its form; several keep their index.
  const name = (index: number, field: string | undefined) =>
    several ? `events[${index}]${field === undefined ? '' : `.${field}`}` : (field ?? 'event')

  try {
    let results: (
      | { status: 'created'; event: PurchaseEvent }
      | { status: 'rejected'; reasons: PurchaseEventRejection[] }
      | { status: 'queued' }
    )[]
    if (options.outbox === undefined) {
      const websiteId = options.websiteId ?? readEnvironment(process.env).websiteId
      const website = websiteId === undefined || websiteId === '' ? {} : { websiteId }
      const client = options.client ?? freshReviewsClient()
      results = await client.purchaseEvents.submit({ events, ...website })
    } else {
      // Nothing the send needs is read before the events are recorded: the environment's client is made
      // at the send, so that a setting it refuses keeps them waiting (with its reason) instead of lost.
      const client: OutboxClient = options.client ?? {
        purchaseEvents: {
          submit: (params, request) => freshReviewsClient().purchaseEvents.submit(params, request),
        },
      }
      const website = options.websiteId === undefined ? {} : { websiteId: options.websiteId }
      const logger = { warn: (message: string) => console.error(`${LOG_PREFIX} ${message}`) }
      results = await sendPurchaseEvents({ client, store: options.outbox, events, logger, ...website })
    }
    // Field names come from the service's answer: kept in a Map, so none can reach a prototype.
    const errors = new Map<string, string>()
    const created: PurchaseEvent[] = []
    const queued: string[] = []
    results.forEach((result, index) => {
      if (result.status === 'created') created.push(result.event)
      else if (result.status === 'queued')
        queued.push((events[index] as PurchaseEventInput).purchase_reference)
      else for (const reason of result.reasons) firstError(errors, name(index, reason.field), reason.message)
    })
    return {
      ok: errors.size === 0,
      created,
      errors: Object.fromEntries(errors),
      message: t(locale, errors.size === 0 ? 'purchaseThanks' : 'purchaseFixFields'),
      ...(options.outbox === undefined ? {} : { queued }),
    }
  } catch (error) {
    const issues = issuesOf(error)?.filter((issue) => issue.field.startsWith('events['))
    if (issues !== undefined && issues.length > 0) {
      const errors = new Map<string, string>()
      for (const issue of issues) {
        const match = /^events\[(\d+)\]\.?(.*)$/.exec(issue.field)
        // What a shopper can cause (a code) in their language; the rest, the code's doing, in English.
        firstError(
          errors,
          name(Number(match?.[1] ?? 0), match?.[2] || undefined),
          fieldErrorIn(locale, issue),
        )
      }
      return failed(Object.fromEntries(errors))
    }
    // Missing credentials or website id, or a service out of reach: nothing the customer can fix.
    console.error(`${LOG_PREFIX} submitPurchaseEvent could not send the purchase events.`, error)
    return failed()
  }
}
