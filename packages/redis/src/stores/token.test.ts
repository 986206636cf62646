import { describe, expect, it } from 'vitest'
import { connectionsFor, redisForFile } from '../../../../test/fixtures/redis.ts'
import { sandboxForFile } from '../../../../test/fixtures/sandbox.ts'
import { createRedisTokenStore } from './token.ts'

const redis = redisForFile()
const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

const connect = connectionsFor(redis)

async function tokenCalls(): Promise<number> {
  return (await sb.stats()).operations['token.published'] ?? 0
}

/** The client of one instance, sharing its token through Redis. */
const instance = () => sb.client({ tokenStore: createRedisTokenStore(connect()) })

describe('createRedisTokenStore', () => {
  it('lets two instances asking at once share one token', async () => {
    const [a, b] = [instance(), instance()]
    await Promise.all([
      a.products.reviews.list({ limit: 1 }),
      b.products.reviews.list({ limit: 1 }),
      a.products.list({ limit: 1 }),
      b.products.list({ limit: 1 }),
    ])
    expect(await tokenCalls()).toBe(1)
  })

  it('lets ten instances share one token', async () => {
    const clients = Array.from({ length: 10 }, instance)
    await Promise.all(clients.map((client) => client.products.reviews.list({ limit: 1 })))
    expect(await tokenCalls()).toBe(1)
  })

  it('gives an instance started later the token already fetched', async () => {
    await instance().products.reviews.list({ limit: 1 })
    await instance().products.reviews.list({ limit: 1 })
    expect(await tokenCalls()).toBe(1)
  })

  it('makes two instances whose token was refused fetch one new token between them', async () => {
    const [a, b] = [instance(), instance()]
    await Promise.all([a.products.reviews.list({ limit: 1 }), b.products.reviews.list({ limit: 1 })])
    await sb.expireTokens()
    await Promise.all([a.products.reviews.list({ limit: 1 }), b.products.reviews.list({ limit: 1 })])
    expect(await tokenCalls()).toBe(2)
  })

  it('keeps the token in Redis until it expires', async () => {
    await instance().products.reviews.list({ limit: 1 })
    const [key] = (await redis.command('KEYS', 'vr:token:v:*'))
      .split('\r\n')
      .filter((line) => line.startsWith('vr:'))
    const ttl = Number((await redis.command('PTTL', key ?? '')).slice(1))
    expect(ttl).toBeGreaterThan(3_500_000)
    expect(ttl).toBeLessThanOrEqual(3_600_000)
  })

  it('holds no client secret in Redis', async () => {
    await instance().products.reviews.list({ limit: 1 })
    const dump = await redis.command('KEYS', '*')
    expect(dump).not.toContain(sb.sandbox.clientSecret)
    for (const key of dump.split('\r\n').filter((line) => line.startsWith('vr:'))) {
      const type = await redis.command('TYPE', key)
      if (type.startsWith('+string'))
        expect(await redis.command('GET', key)).not.toContain(sb.sandbox.clientSecret)
    }
  })

  it('drops a refused token only while it is still the one stored', async () => {
    const store = createRedisTokenStore(connect())
    await store.set('k', { value: 'new', issuedAt: Date.now(), expiresAt: Date.now() + 60_000 })
    await store.delete('k', 'old')
    expect((await store.get('k'))?.value).toBe('new')
    await store.delete('k', 'new')
    expect(await store.get('k')).toBeUndefined()
  })

  it('keeps a token without expiry until it is refused', async () => {
    const store = createRedisTokenStore(connect())
    await store.set('k', { value: 'forever', issuedAt: 1 })
    expect(await store.get('k')).toEqual({ value: 'forever', issuedAt: 1, expiresAt: undefined })
    expect(await redis.command('PTTL', 'vr:token:v:k')).toBe(':-1\r\n')
  })
})
