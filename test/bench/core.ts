/**
 * Benchmark of `@verified-reviews/core` (a figure, not a test): reviews per second for a full walk of
 * the seeded product reviews, and the client's overhead over raw fetch on the same walk, both against
 * a local sandbox without rate limit.
 *
 *   pnpm bench:core [--runs 15] [--limit 200]
 */
import { parseArgs } from 'node:util'
import { createClient } from '@verified-reviews/core'
import { createSandbox } from '@verified-reviews/sandbox'

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '15' }, limit: { type: 'string', default: '200' } },
})
const runs = Number(values.runs)
const limit = Number(values.limit)

const sb = await createSandbox({ rateLimit: 0 })
const published = `${sb.origin}/verified-reviews/v1/published`

/** The same walk with nothing but fetch: one token, then pages followed through `Link: rel="next"`. */
async function rawWalk(token: string): Promise<number> {
  let count = 0
  let url: string | undefined = `${published}/products/reviews?limit=${limit}`
  while (url !== undefined) {
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    })
    if (!response.ok) throw new Error(`${response.status} from ${url}`)
    const reviews = (await response.json()) as unknown[]
    count += reviews.length
    const next = /<([^>]+)>\s*;\s*rel="?next"?/.exec(response.headers.get('link') ?? '')
    url = next?.[1]
  }
  return count
}

async function rawToken(): Promise<string> {
  const response = await fetch(`${sb.origin}/realms/skeepers/protocol/openid-connect/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${btoa(`${sb.clientId}:${sb.clientSecret}`)}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials&audience=verified-reviews',
  })
  return ((await response.json()) as { access_token: string }).access_token
}

const vr = createClient({ origin: sb.origin, clientId: sb.clientId, clientSecret: sb.clientSecret })

async function clientWalk(): Promise<number> {
  let count = 0
  for await (const _ of vr.products.reviews.list({ limit })) count++
  return count
}

const token = await rawToken()
async function time(walk: () => Promise<number>): Promise<{ ms: number; count: number }> {
  const start = performance.now()
  const count = await walk()
  return { ms: performance.now() - start, count }
}

// Warm both paths (JIT, connections, the client's token) before measuring.
for (let i = 0; i < 3; i++) {
  await clientWalk()
  await rawWalk(token)
}

const clientTimes: number[] = []
const rawTimes: number[] = []
let reviews = 0
// Interleaved so that drift of the machine weighs on both alike.
for (let i = 0; i < runs; i++) {
  const client = await time(clientWalk)
  const raw = await time(() => rawWalk(token))
  if (client.count !== raw.count) throw new Error(`the walks disagree: ${client.count} vs ${raw.count}`)
  reviews = client.count
  clientTimes.push(client.ms)
  rawTimes.push(raw.ms)
}
await sb.close()

const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}
const pages = Math.ceil(reviews / limit)
const clientMs = median(clientTimes)
const rawMs = median(rawTimes)
const fmt = (n: number, digits = 1) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

console.log(
  `Full walk of ${reviews} product reviews, limit ${limit} (${pages} requests), median of ${runs} runs`,
)
console.log(`Node ${process.versions.node}, sandbox on 127.0.0.1, rate limit off\n`)
console.log('| walk | median time | reviews per second |')
console.log('|---|---|---|')
console.log(
  `| \`vr.products.reviews.list\` (for await) | ${fmt(clientMs)} ms | ${fmt((reviews / clientMs) * 1000, 0)} |`,
)
console.log(`| raw \`fetch\` + \`Link\` regex | ${fmt(rawMs)} ms | ${fmt((reviews / rawMs) * 1000, 0)} |`)
console.log(
  `\nClient overhead over raw fetch: ${fmt(clientMs - rawMs)} ms per walk (${fmt(((clientMs - rawMs) / rawMs) * 100)} %), ` +
    `${fmt((clientMs - rawMs) / pages, 2)} ms per request`,
)
