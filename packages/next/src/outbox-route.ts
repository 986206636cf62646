import {
  type DrainOutboxOptions,
  drainOutbox,
  type OutboxClient,
  type OutboxDrainReport,
  type OutboxStore,
} from '@verified-reviews/core/outbox'
import { freshReviewsClient } from './clients.ts'
import { jsonAnswer } from './internal/json-answer.ts'
import { scheduledFailure } from './internal/scheduled-failure.ts'
import { schedulerCheck } from './internal/secret.ts'

/** Options of {@link createOutboxDrainRoute}. */
export interface OutboxDrainRouteOptions
  extends Pick<
    DrainOutboxOptions,
    'batchSize' | 'leaseMs' | 'maxDuration' | 'maxEvents' | 'maxFailures' | 'backoff'
  > {
  /**
   * The outbox that `submitPurchaseEvent({ outbox })` records in: the same store object (or the same
   * file, or Redis), made once in a module both import.
   */
  store: OutboxStore
  /**
   * The shared secret a caller sends as `Authorization: Bearer <secret>`, as for the revalidate
   * route; Vercel Cron's `CRON_SECRET` is accepted too when it is set. Without any secret every call
   * is refused.
   * @default VERIFIED_REVIEWS_REVALIDATE_SECRET (read by the core's `readEnvironment`)
   */
  secret?: string
  /**
   * The client that sends.
   * @default the environment's client, without the Next.js data cache
   */
  client?: OutboxClient
}

/** The answer of the outbox drain route. */
export interface OutboxDrainRouteBody {
  /** What this call sent (see `drainOutbox` of `@verified-reviews/core/outbox`). */
  drain: OutboxDrainReport
  /** What the outbox holds after it. */
  outbox: {
    pending: number
    leased: number
    deadLetters: number
    /** When the next event can be sent (ISO 8601), or null when none waits. */
    nextAttemptAt: string | null
  }
}

/** The handlers of the outbox drain route: export them from an `app/…/route.ts`. */
export interface OutboxDrainRoute {
  GET(request: Request): Promise<Response>
  POST(request: Request): Promise<Response>
}

/**
 * The route a scheduler calls to send the purchase events that `submitPurchaseEvent({ outbox })`
 * could not send at once, for `app/api/purchase-events-outbox/route.ts`:
 *
 * ```ts
 * import { outbox } from '@/lib/outbox' // createSqliteOutboxStore('.data/purchase-events.sqlite'), or Redis
 * export const { GET, POST } = createOutboxDrainRoute({ store: outbox })
 * ```
 *
 * Each call (GET for Vercel Cron, or POST) must carry `Authorization: Bearer <secret>`, the same
 * secret as the revalidate route, compared in constant time. It runs `drainOutbox` (exactly once per
 * `purchase_reference`, in order per order, backoff, dead-letter list; see the core README) and
 * answers what it sent and what still waits. Calls at the same time, on one server or several, never
 * send the same event: each claims its own batches.
 */
export function createOutboxDrainRoute(options: OutboxDrainRouteOptions): OutboxDrainRoute {
  const { store, secret, client, ...drain } = options
  const check = schedulerCheck('outbox drain route', secret)

  const handle = async (request: Request): Promise<Response> => {
    const refused = await check(request)
    if (refused !== undefined) return refused

    try {
      const report = await drainOutbox({
        ...drain,
        client: client ?? freshReviewsClient(),
        store,
        signal: request.signal,
      })
      const stats = await store.stats()
      const body: OutboxDrainRouteBody = {
        drain: report,
        outbox: {
          pending: stats.pending,
          leased: stats.leased,
          deadLetters: stats.deadLetters,
          nextAttemptAt:
            stats.nextAttemptAt === undefined ? null : new Date(stats.nextAttemptAt).toISOString(),
        },
      }
      return jsonAnswer(200, body)
    } catch (error) {
      return jsonAnswer(502, {
        error: { message: scheduledFailure('the outbox could not be drained', error) },
      })
    }
  }

  return { GET: handle, POST: handle }
}
