import { createMemoryOutboxStore, type OutboxStore } from '@verified-reviews/core/outbox'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { newEntry } from '../../../test/fixtures/outbox-store.ts'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
import { createOutboxDrainRoute, type OutboxDrainRouteBody } from './outbox-route.ts'

const SECRET = 'a-secret-of-the-scheduler-0123456789'
const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

function call(method: 'GET' | 'POST', authorization?: string) {
  return new Request('https://shop.example/api/purchase-events-outbox', {
    method,
    headers: authorization === undefined ? {} : { authorization },
  })
}

async function waiting(store: OutboxStore, count: number) {
  const entries = Array.from({ length: count }, (_, index) => newEntry(`ORDER-${index}`))
  await store.add(entries.map((entry) => ({ ...entry, websiteId: sb.sandbox.websiteId })))
}

async function received(): Promise<string[]> {
  const events = (await sb.admin('GET', 'purchase-events')) as Array<{ purchase_reference: string }>
  return events.map((event) => event.purchase_reference)
}

describe('createOutboxDrainRoute', () => {
  it('sends what waits in the outbox and answers what it sent and what still waits', async () => {
    const store = createMemoryOutboxStore()
    await waiting(store, 60)
    const route = createOutboxDrainRoute({ store, secret: SECRET, client: sb.client() })
    const response = await route.POST(call('POST', `Bearer ${SECRET}`))
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const body = (await response.json()) as OutboxDrainRouteBody
    expect(body.drain).toMatchObject({ sent: 60, deadLettered: 0, deferred: 0, calls: 2, stoppedBy: 'empty' })
    expect(body.outbox).toEqual({ pending: 0, leased: 0, deadLetters: 0, nextAttemptAt: null })
    expect((await received()).length).toBe(60)
  })

  it('keeps what the service failed to take and says when it is due', async () => {
    await sb.faults([{ operation: 'purchase-events.submit', status: 503 }])
    const store = createMemoryOutboxStore()
    await waiting(store, 2)
    const route = createOutboxDrainRoute({ store, secret: SECRET, client: sb.client(), maxFailures: 1 })
    const body = (await (await route.GET(call('GET', `Bearer ${SECRET}`))).json()) as OutboxDrainRouteBody
    expect(body.drain).toMatchObject({ sent: 0, deferred: 2, stoppedBy: 'unavailable' })
    expect(body.outbox.pending).toBe(2)
    expect(Date.parse(body.outbox.nextAttemptAt as string)).toBeGreaterThan(Date.now())
  })

  it('answers waiting, with when the next attempt is due, when the service is back before the retry delay', async () => {
    await sb.faults([{ operation: 'purchase-events.submit', status: 503, count: 1 }])
    const store = createMemoryOutboxStore()
    await waiting(store, 1)
    const route = createOutboxDrainRoute({ store, secret: SECRET, client: sb.client(), maxFailures: 1 })
    await route.POST(call('POST', `Bearer ${SECRET}`))
    const body = (await (await route.POST(call('POST', `Bearer ${SECRET}`))).json()) as OutboxDrainRouteBody
    expect(body.drain).toMatchObject({ sent: 0, calls: 0, stoppedBy: 'waiting' })
    expect(body.outbox.pending).toBe(1)
    expect(body.drain.nextAttemptAt).toBe(body.outbox.nextAttemptAt)
    expect(Date.parse(body.drain.nextAttemptAt as string)).toBeGreaterThan(Date.now())
  })

  it('refuses a call without the secret with 401 and sends nothing', async () => {
    const store = createMemoryOutboxStore()
    await waiting(store, 1)
    const response = await createOutboxDrainRoute({ store, secret: SECRET, client: sb.client() }).POST(
      call('POST'),
    )
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer')
    expect((await store.stats()).pending).toBe(1)
    expect(await received()).toEqual([])
  })

  it('refuses a wrong secret', async () => {
    const route = createOutboxDrainRoute({
      store: createMemoryOutboxStore(),
      secret: SECRET,
      client: sb.client(),
    })
    expect((await route.POST(call('POST', `Bearer ${SECRET}x`))).status).toBe(401)
  })

  it("takes the revalidate route's secret from the environment, and CRON_SECRET", async () => {
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE_SECRET', 'from-env-secret-0123456789')
    vi.stubEnv('CRON_SECRET', 'cron-secret-0123456789')
    const route = createOutboxDrainRoute({ store: createMemoryOutboxStore(), client: sb.client() })
    expect((await route.GET(call('GET', 'Bearer from-env-secret-0123456789'))).status).toBe(200)
    expect((await route.GET(call('GET', 'Bearer cron-secret-0123456789'))).status).toBe(200)
  })

  it('refuses every call when no secret is configured, and says why once', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE_SECRET', '')
    vi.stubEnv('CRON_SECRET', '')
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const route = createOutboxDrainRoute({ store: createMemoryOutboxStore(), client: sb.client() })
    expect((await route.POST(call('POST', 'Bearer anything'))).status).toBe(401)
    expect((await route.POST(call('POST', 'Bearer '))).status).toBe(401)
    expect(logged).toHaveBeenCalledTimes(1)
    expect(String(logged.mock.lastCall?.[0])).toMatch(
      /^\[@verified-reviews\/next\] the outbox drain route refuses every call/,
    )
  })

  it('answers 502 when the outbox cannot be read', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const store = createMemoryOutboxStore()
    store.claim = async () => {
      throw new Error('disk gone')
    }
    const response = await createOutboxDrainRoute({ store, secret: SECRET, client: sb.client() }).POST(
      call('POST', `Bearer ${SECRET}`),
    )
    expect(response.status).toBe(502)
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'the outbox could not be drained; the next call resumes it',
    )
  })

  it('says which option to fix, not that the next call resumes, when an option is out of range', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const store = createMemoryOutboxStore()
    await waiting(store, 1)
    const route = createOutboxDrainRoute({ store, secret: SECRET, client: sb.client(), batchSize: 0 })
    const response = await route.POST(call('POST', `Bearer ${SECRET}`))
    expect(response.status).toBe(502)
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'the outbox could not be drained: batchSize: must be an integer from 1 to 50; every call fails the same way until the configuration of this server is fixed',
    )
    expect(String(logged.mock.lastCall?.[0])).toMatch(
      /^\[@verified-reviews\/next\] the outbox could not be drained: /,
    )
    expect((await store.stats()).pending).toBe(1)
  })
})
