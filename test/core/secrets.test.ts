import { createHash } from 'node:crypto'
import { inspect } from 'node:util'
import {
  APIConnectionError,
  APITimeoutError,
  AuthenticationError,
  InternalServerError,
  type RateLimitEvent,
  type RetryEvent,
} from '@verified-reviews/core'
import { createMemoryCache } from '@verified-reviews/core/cache'
import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../fixtures/sandbox.ts'

const sb = sandboxForFile({ rateLimit: 0 })

/** The Genesis token of today for the sandbox website, derived from `secret`. */
function genesisToken(secret: string): string {
  const date = new Date().toISOString().slice(0, 10)
  return createHash('sha256').update(`${sb.sandbox.websiteId}${secret}${date}`).digest('hex')
}

/** Every way a value is shown: String(), message, stack, JSON, util.inspect with hidden members. */
function shown(value: unknown): string {
  const error = value instanceof Error ? value : undefined
  return [
    String(value),
    error?.message ?? '',
    error?.stack ?? '',
    JSON.stringify(value),
    inspect(value, { depth: 10, showHidden: true }),
  ].join('\n')
}

function expectNone(value: unknown, secrets: readonly string[]) {
  const text = shown(value)
  for (const secret of secrets) expect(text).not.toContain(secret)
}

/** The Genesis secret and today's token: neither may show anywhere. */
const genesisSecrets = () => [sb.sandbox.genesisSecret, genesisToken(sb.sandbox.genesisSecret)]

describe('Genesis errors and events against the sandbox', () => {
  it('sends the token in the query string (the thing to keep out of errors)', async () => {
    const urls: string[] = []
    const vr = sb.client({
      fetch: (url, init) => {
        urls.push(url)
        return fetch(url, init)
      },
    })
    await vr.genesis.website.get({ range: 1 })
    expect(urls[0]).toContain(`token=${genesisToken(sb.sandbox.genesisSecret)}`)
  })

  it('keeps the token out of the retry events of a failing Genesis call', async () => {
    await sb.faults([{ operation: 'genesis.website', status: 500, count: 1 }])
    const events: RetryEvent[] = []
    await sb.client({ onRetry: (event) => void events.push(event) }).genesis.website.get({ range: 1 })
    expect(events).toHaveLength(1)
    expect(events[0]?.url).toContain('token=[REDACTED]')
    expectNone(events[0], genesisSecrets())
  })

  it('keeps the token out of the rate-limit events of a refused Genesis call', async () => {
    await sb.faults([{ operation: 'genesis.product', status: 429, count: 1 }])
    const events: RateLimitEvent[] = []
    await sb
      .client({ onRateLimit: (event) => void events.push(event) })
      .genesis.product.reviews({ product: ['SKU-001'] })
    expect(events).toHaveLength(1)
    expectNone(events[0], genesisSecrets())
  })

  it('keeps the token out of the error of a Genesis call that keeps failing', async () => {
    await sb.faults([{ operation: 'genesis.product', status: 503 }])
    const error = await sb
      .client({ maxRetries: 1 })
      .genesis.product.average({ product: ['SKU-001'] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InternalServerError)
    expect((error as InternalServerError).url).toBe(
      `${sb.sandbox.origin}/genesis/product?idWebsite=${sb.sandbox.websiteId}&token=[REDACTED]`,
    )
    expectNone(error, genesisSecrets())
  })

  it('keeps a wrong secret and its token out of the AuthenticationError', async () => {
    const wrong = 'a-wrong-genesis-secret'
    const error = await sb
      .client({ genesisSecret: wrong })
      .genesis.website.get()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AuthenticationError)
    expectNone(error, [wrong, genesisToken(wrong)])
  })

  it('keeps the token out of the APITimeoutError of a slow Genesis call', async () => {
    await sb.faults([{ operation: 'genesis.website', latencyMs: 1500 }])
    const error = await sb
      .client({ timeout: 200, maxRetries: 0 })
      .genesis.website.get()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(APITimeoutError)
    expectNone(error, genesisSecrets())
  })

  it('keeps the token out of the APIConnectionError of an unreachable Genesis server', async () => {
    const error = await sb
      .client({ genesisUrl: 'http://127.0.0.1:1/genesis', maxRetries: 0 })
      .genesis.product.reviews({ product: ['SKU-001'] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(APIConnectionError)
    expectNone(error, genesisSecrets())
  })

  it('never hands the token to the cache store', async () => {
    const written: unknown[] = []
    const store = createMemoryCache()
    const recording = {
      get: (key: string) => store.get(key),
      set: (key: string, value: unknown, options: Parameters<typeof store.set>[2]) => {
        written.push({ key, value })
        return store.set(key, value, options)
      },
      delete: (key: string) => store.delete(key),
      deleteByTag: (tag: string) => store.deleteByTag(tag),
    }
    await sb.client({ cache: recording }).genesis.website.get({ range: 1 })
    expect(written).toHaveLength(1)
    expectNone(written, genesisSecrets())
  })
})

describe('OAuth errors against the sandbox', () => {
  it('keeps the client secret out of the error of refused credentials', async () => {
    const wrong = 'a-wrong-client-secret'
    const error = await sb
      .client({ clientSecret: wrong })
      .products.list()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AuthenticationError)
    expectNone(error, [wrong, btoa(`${sb.sandbox.clientId}:${wrong}`)])
  })
})
