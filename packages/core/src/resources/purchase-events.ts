import { chunks } from '../internal/base/concurrency.ts'
import { BadRequestError } from '../internal/base/errors.ts'
import { remembered } from '../internal/base/remembered.ts'
import { Issues, isObject } from '../internal/base/validate.ts'
import { optionsFor } from '../internal/context/operation-options.ts'
import { purchaseDateOf } from '../internal/purchase-events/purchase-date.ts'
import { checkPurchaseEvent } from '../internal/purchase-events/purchase-event-checks.ts'
import { joinUrl } from '../internal/settings/addresses.ts'
import { send } from '../internal/transport/http.ts'
import { arrayOf, invalidAnswer } from '../internal/transport/json-body.ts'
import type { SubmitPurchaseEventsParams } from '../types/params.ts'
import type { PurchaseEvent, PurchaseEventInput } from '../types/purchase-events.ts'
import type { RequestOptions } from '../types/request-options.ts'
import { Resource } from './resource.ts'

/** The service takes at most this many events per request. */
export const PURCHASE_EVENTS_PER_REQUEST = 50

/** Why the service refused an event. */
export interface PurchaseEventRejection {
  /** The member at fault, relative to the event (`consumer.email`), when the service named one. */
  field: string | undefined
  message: string
}

/** What became of one submitted event. */
export type PurchaseEventResult =
  | {
      status: 'created'
      /** The event as the service stored it, with its `id` and `purchase_event_status`. */
      event: PurchaseEvent
      /** For an event whose `purchase_reference` appeared earlier in the input: the index of that first one. */
      duplicateOf?: number
    }
  | {
      status: 'rejected'
      reasons: PurchaseEventRejection[]
      /** For an event whose `purchase_reference` appeared earlier in the input: the index of that first one. */
      duplicateOf?: number
    }

interface Pending {
  index: number
  event: PurchaseEventInput
}

/**
 * Per-event problems by position in the events sent: the `items` (a 400's `errors`, a
 * `ValidationError`'s `issues`) whose `index` is one of them, each field relative to its event.
 */
export function rejectionsByIndex(items: unknown, size: number): Map<number, PurchaseEventRejection[]> {
  const byPosition = new Map<number, PurchaseEventRejection[]>()
  if (!Array.isArray(items)) return byPosition
  for (const item of items) {
    if (!isObject(item) || typeof item.index !== 'number' || item.index < 0 || item.index >= size) continue
    const field =
      typeof item.field === 'string' ? item.field.replace(/^(?:events)?\[\d+\]\.?/, '') : undefined
    const message = typeof item.message === 'string' ? item.message : 'refused by the service'
    remembered(byPosition, item.index, () => []).push({ field: field === '' ? undefined : field, message })
  }
  return byPosition
}

/** Submitting purchase events, so that consumers are invited to review their purchase. */
export class PurchaseEvents extends Resource {
  /**
   * Submits any number of purchase events and returns what became of each, in input order.
   *
   * Every event is checked first: if any is invalid, a `ValidationError` lists each problem by index
   * and field and nothing is sent. A repeated `purchase_reference` is sent once and shares its result.
   * Batches of 50 go out one after the other; events a batch refused are left out and the rest sent
   * again. A failed batch is retried unless `retry` is `false` (see {@link SubmitPurchaseEventsParams}).
   */
  async submit(
    params: SubmitPurchaseEventsParams,
    callOptions?: RequestOptions,
  ): Promise<PurchaseEventResult[]> {
    const issues = new Issues()
    const websiteId = issues.websiteId(params?.websiteId, this.context.websiteId)
    const events: unknown = params?.events
    if (!Array.isArray(events)) issues.add('events', 'must be an array of purchase events')
    const retry: unknown = params?.retry
    if (retry !== undefined && typeof retry !== 'boolean') issues.add('retry', 'must be true or false')
    issues.throwIfAny()
    const list = events as PurchaseEventInput[]
    list.forEach((event, index) => {
      checkPurchaseEvent(event, index, websiteId, issues)
    })
    issues.throwIfAny()
    const asked = optionsFor(this.context, 'purchaseEvents.submit', params, callOptions)
    const options = retry === false ? { ...asked, maxRetries: 0 } : asked

    const firstByReference = new Map<string, number>()
    const unique: Pending[] = []
    list.forEach((event, index) => {
      if (firstByReference.has(event.purchase_reference)) return
      firstByReference.set(event.purchase_reference, index)
      // Checked above, so it reads; sent in the strict form a service parses (RFC 3339).
      unique.push({
        index,
        event: { ...event, purchase_date: purchaseDateOf(event.purchase_date) as string },
      })
    })

    const results = new Map<number, PurchaseEventResult>()
    const url = joinUrl(
      this.context.addresses.purchaseEventsUrl,
      `websites/${encodeURIComponent(websiteId)}/purchase-events`,
    )
    for (const batch of chunks(unique, PURCHASE_EVENTS_PER_REQUEST)) {
      await this.#sendBatch(url, batch, results, options)
    }
    return list.map((event, index) => {
      const first = firstByReference.get(event.purchase_reference) as number
      const result = results.get(first) as PurchaseEventResult
      return first === index ? result : { ...result, duplicateOf: first }
    })
  }

  /**
   * Sends one batch and records what became of each event. A 400 that names events rejects those, and
   * the rest is sent again.
   */
  async #sendBatch(
    url: string,
    batch: Pending[],
    results: Map<number, PurchaseEventResult>,
    options: RequestOptions | undefined,
  ): Promise<void> {
    let pending = batch
    while (pending.length > 0) {
      let answer: Awaited<ReturnType<typeof send>>
      try {
        answer = await send(
          this.context.settings,
          {
            service: this.context.purchaseEvents,
            method: 'POST',
            url,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(pending.map((item) => item.event)),
          },
          options,
        )
      } catch (error) {
        if (!(error instanceof BadRequestError)) throw error
        const rejections = rejectionsByIndex(
          isObject(error.body) ? error.body.errors : undefined,
          pending.length,
        )
        if (rejections.size === 0) throw error
        for (const [position, reasons] of rejections) {
          results.set((pending[position] as Pending).index, { status: 'rejected', reasons })
        }
        // The service refused the whole batch; send again what it did not object to.
        pending = pending.filter((_, position) => !rejections.has(position))
        continue
      }
      const created = new Map<string, PurchaseEvent>()
      for (const event of arrayOf<PurchaseEvent>(answer, 'purchase-events')) {
        if (isObject(event) && typeof event.purchase_reference === 'string')
          created.set(event.purchase_reference, event)
      }
      for (const item of pending) {
        const event = created.get(item.event.purchase_reference)
        if (event === undefined) {
          throw invalidAnswer(
            answer,
            'purchase-events',
            `The service did not return the event with purchase_reference ${item.event.purchase_reference}.`,
          )
        }
        results.set(item.index, { status: 'created', event })
      }
      return
    }
  }
}
