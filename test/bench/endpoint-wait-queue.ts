/**
 * Benchmark of the reviews endpoint's wait queue (a figure, not a test): N requests beyond the one call
 * under way wait `maxWait` (1 s) for a slot and then time out together. It prints how long the event
 * loop stalled (`monitorEventLoopDelay`, from just before the waits end) and when the last 503 came (the waits end at 1 s).
 * Before issue 19 each timed-out waiter left the queue by `splice(indexOf)`, so N timeouts cost N²/2.
 *
 *   pnpm bench:wait-queue [--requests 100000] [--max-waiting 100000]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { handleReviewsRequest, type ReviewsEndpointOptions } from '@verified-reviews/core/endpoint'

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    'max-waiting': { type: 'string' },
  },
})
const requests = Number(values.requests)
// As many waiters as requests by default, so that every one of them goes through the queue.
const maxWaiting = Number(values['max-waiting'] ?? requests)

// The one call under way outlasts every wait: no waiter is ever handed a slot.
const client: ReviewsEndpointOptions['client'] = {
  products: {
    reviews: {
      list: () =>
        new Promise((resolve) => setTimeout(() => resolve({ data: [], nextCursor: undefined }), 3000)),
    },
  },
}
const options: ReviewsEndpointOptions = {
  client,
  cursorSecret: 'a-cursor-secret-for-the-benchmark',
  maxConcurrency: 1,
  maxWait: 1000,
  maxWaiting,
  onError: () => {},
}

const started = performance.now()
const statuses = new Map<number, number>()
let lastRefusal = 0
const answers = Array.from({ length: requests }, (_, index) =>
  handleReviewsRequest(new URLSearchParams(`product_variation_id=P${index}`), options).then((result) => {
    statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1)
    if (result.status === 503) lastRefusal = performance.now() - started
  }),
)
// Measured from 0.5 s on: the requests are queued, and their waits end at 1 s.
await new Promise((resolve) => setTimeout(resolve, 500))
const delay = monitorEventLoopDelay({ resolution: 10 })
delay.enable()
await Promise.all(answers)
// One more turn of the loop, so that the histogram records the stall that just ended.
await new Promise((resolve) => setTimeout(resolve, 50))
delay.disable()

const ms = (ns: number) => (ns / 1e6).toFixed(1)
console.log(
  [
    `reviews endpoint wait queue: ${requests} requests, maxConcurrency 1, maxWait 1000 ms, maxWaiting ${maxWaiting}`,
    `  answers: ${[...statuses].map(([status, count]) => `${count} × ${status}`).join(', ')}`,
    `  last 503 after ${lastRefusal.toFixed(0)} ms`,
    `  event loop delay while the waits end: max ${ms(delay.max)} ms, p99 ${ms(delay.percentile(99))} ms`,
  ].join('\n'),
)
