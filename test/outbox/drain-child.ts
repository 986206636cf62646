/**
 * A drain in its own process, for the outbox proof: it drains the outbox given on the command
 * line (an SQLite file) into the sandbox, prints `sent <references>` after each batch the service answered, and after
 * the `hangAfter`-th one it stops before recording the answer (it hangs), so that the test kills it
 * between sending and marking.
 *
 * node --conditions=@verified-reviews/source test/outbox/drain-child.ts <file> <hangAfter>
 * (the sandbox comes from VERIFIED_REVIEWS_ORIGIN, _CLIENT_ID, _CLIENT_SECRET)
 */
import { createClient } from '@verified-reviews/core'
import { createSqliteOutboxStore, drainOutbox, type OutboxClient } from '@verified-reviews/core/outbox'
import { fetchWithoutRetryAfter } from './no-retry-after.ts'

const [journal, hangAfterText] = process.argv.slice(2)
if (journal === undefined || hangAfterText === undefined)
  throw new Error('usage: drain-child.ts <file> <hangAfter>')
const hangAfter = Number(hangAfterText)
const client = createClient({ fetch: fetchWithoutRetryAfter })
let answered = 0
const hanging: OutboxClient = {
  purchaseEvents: {
    async submit(params, options) {
      const results = await client.purchaseEvents.submit(params, options)
      answered++
      process.stdout.write(`sent ${params.events.map((event) => event.purchase_reference).join(',')}\n`)
      // Hangs with the answer unrecorded, alive (a timer keeps the process up) until it is killed.
      if (answered >= hangAfter) await new Promise(() => setInterval(() => {}, 1_000))
      return results
    },
  },
}
const store = createSqliteOutboxStore(journal)
for (;;) {
  const report = await drainOutbox({
    client: hanging,
    store,
    leaseMs: 1_500,
    backoff: { initialDelay: 20, maxDelay: 200 },
  })
  process.stdout.write(`drained ${JSON.stringify(report)}\n`)
  if ((await store.stats()).pending === 0) break
  await new Promise((resolve) => setTimeout(resolve, 20))
}
