/**
 * Benchmark of the client's own rate budget (a figure, not a test): a burst of concurrent calls through
 * one client, against a sandbox that allows `--rate` requests a second, with no shared (Redis) budget.
 * It prints the API requests sent, the 429s among them, the calls that failed and how long the burst
 * took. A budget that paces at the limit sends each call once, gets no 429, and takes about
 * `calls / rate` seconds.
 *
 *   pnpm bench:rate-burst [--calls 96] [--rate 10]
 */
import { parseArgs } from 'node:util'
import { createClient } from '@verified-reviews/core'
import { createSandbox } from '@verified-reviews/sandbox'

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '96' },
    rate: { type: 'string', default: '10' },
  },
})
const calls = Number(values.calls)
const rate = Number(values.rate)

const sb = await createSandbox({ seed: 1, rateLimit: rate })
// Every answer of the API as the client saw it, token requests aside.
const statuses = new Map<number, number>()
const client = createClient({
  origin: sb.origin,
  clientId: sb.clientId,
  clientSecret: sb.clientSecret,
  fetch: async (input, init) => {
    const response = await fetch(input, init)
    if (!String(input).includes('/token'))
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
    return response
  },
})
try {
  const started = performance.now()
  const results = await Promise.allSettled(
    Array.from({ length: calls }, () => client.products.list({ limit: 1 })),
  )
  const seconds = (performance.now() - started) / 1000
  const failed = results.filter((result) => result.status === 'rejected')
  const sent = [...statuses.values()].reduce((sum, n) => sum + n, 0)
  const refused = statuses.get(429) ?? 0
  const stats = (await (await fetch(`${sb.origin}/__sandbox/stats`)).json()) as { rateLimited?: number }
  console.log(`rate-burst: ${calls} concurrent calls, sandbox limit ${rate} requests/s, no shared budget`)
  console.log(`  API requests sent   ${sent} (${(sent / seconds).toFixed(1)}/s)`)
  console.log(
    `  429 answers         ${refused}${stats.rateLimited === undefined ? '' : ` (sandbox counted ${stats.rateLimited})`}`,
  )
  console.log(`  failed calls        ${failed.length} of ${calls}`)
  console.log(`  duration            ${seconds.toFixed(1)} s`)
  const reasons = new Map<string, number>()
  for (const result of failed) {
    const error = result.reason as Error
    reasons.set(error.name, (reasons.get(error.name) ?? 0) + 1)
  }
  if (reasons.size > 0)
    console.log(`  failures            ${[...reasons].map(([name, n]) => `${n} ${name}`).join(', ')}`)
} finally {
  await sb.close()
}
