import { ValidationError } from '@verified-reviews/core'
import { createClient } from 'redis'
import { describe, expect, it, vi } from 'vitest'
import { connectionsFor, redisForFile } from '../../../test/fixtures/redis.ts'
import { createRedisConnection, type RedisCommandClient } from './connection.ts'
import { RedisUnavailableError } from './redis-unavailable-error.ts'
import { createRedisCache } from './stores/cache.ts'
import { createRedisTokenStore } from './stores/token.ts'

const redis = redisForFile()
const connect = connectionsFor(redis)

describe('createRedisConnection', () => {
  it('connects on first use, not when it is created', async () => {
    const connection = connect()
    expect(connection.client.isOpen).toBe(false)
    await createRedisCache(connection).get('k')
    expect(connection.client.isReady).toBe(true)
  })

  it('takes a node-redis client of your own and leaves it open when closed', async () => {
    const client = createClient({ url: redis.url })
    const connection = createRedisConnection({ client })
    try {
      await createRedisCache(connection).set('k', 1, { ttl: 10 })
      await connection.close()
      expect(client.isOpen).toBe(true)
      expect(await client.get('vr:cache:v:k')).toBe('1')
    } finally {
      client.destroy()
    }
  })

  it('keeps the keys of two prefixes apart in one Redis', async () => {
    await createRedisCache(connect({ prefix: 'shop-a:' })).set('k', 'a', { ttl: 10 })
    expect(await createRedisCache(connect({ prefix: 'shop-b:' })).get('k')).toBeUndefined()
    expect(await createRedisCache(connect({ prefix: 'shop-a:' })).get('k')).toBe('a')
  })

  it('refuses a timeout that is not a positive number, naming it', () => {
    expect(() => createRedisConnection({ commandTimeout: 0 })).toThrow(ValidationError)
    expect(() => createRedisConnection({ retryInterval: -1 })).toThrow(/retryInterval/)
  })

  it('names the server in its warning without the credentials of the address', async () => {
    const warn = vi.fn()
    const connection = connect({
      url: 'redis://user:hunter2@127.0.0.1:1/2',
      connectTimeout: 200,
      logger: { warn },
    })
    await expect(createRedisTokenStore(connection).get('k')).rejects.toBeInstanceOf(RedisUnavailableError)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toContain('Redis at redis://127.0.0.1:1/2 is unavailable')
    expect(warn.mock.calls[0]?.[0]).not.toContain('hunter2')
  })

  it('warns once per outage, and says when Redis answers again', async () => {
    const warn = vi.fn()
    const info = vi.fn()
    const connection = connect({ commandTimeout: 150, retryInterval: 100, logger: { warn, info } })
    const tokens = createRedisTokenStore(connection)
    await tokens.get('k').catch(() => {})
    redis.pause()
    try {
      for (let i = 0; i < 5; i++) await expect(tokens.get('k')).rejects.toBeInstanceOf(RedisUnavailableError)
    } finally {
      redis.resume()
    }
    expect(warn).toHaveBeenCalledTimes(1)
    await vi.waitFor(async () => {
      await tokens.get('k').catch(() => {})
      expect(info).toHaveBeenCalledTimes(1)
    })
    redis.pause()
    try {
      await expect(tokens.get('k')).rejects.toBeInstanceOf(RedisUnavailableError)
    } finally {
      redis.resume()
    }
    expect(warn).toHaveBeenCalledTimes(2)
  })

  it('does not end an outage on the late answer of a command sent before it began', async () => {
    const pending: { resolve: (value: unknown) => void; reject: (error: Error) => void }[] = []
    const client: RedisCommandClient = {
      isOpen: true,
      isReady: true,
      connect: async () => {},
      sendCommand: () => new Promise((resolve, reject) => pending.push({ resolve, reject })),
      on: () => undefined,
      close: async () => {},
      destroy: () => {},
    }
    const info = vi.fn()
    const connection = createRedisConnection({
      client,
      commandTimeout: 5000,
      retryInterval: 10_000,
      logger: { warn: () => {}, info },
    })
    const tokens = createRedisTokenStore(connection)
    const early = tokens.get('a')
    const late = tokens.get('b')
    await vi.waitFor(() => expect(pending).toHaveLength(2))
    // The connection breaks: the second command fails, then the answer of the first arrives.
    pending[1]?.reject(new Error('Socket closed unexpectedly'))
    await expect(late).rejects.toBeInstanceOf(RedisUnavailableError)
    pending[0]?.resolve(null)
    await early
    expect(connection.available).toBe(false)
    expect(info).not.toHaveBeenCalled()
  })

  it('fails at once, without waiting for a timeout, while Redis is known to be down', async () => {
    const connection = connect({ commandTimeout: 300, retryInterval: 60_000 })
    const tokens = createRedisTokenStore(connection)
    await tokens.get('k')
    redis.pause()
    try {
      await expect(tokens.get('k')).rejects.toBeInstanceOf(RedisUnavailableError)
      const started = Date.now()
      await expect(tokens.get('k')).rejects.toBeInstanceOf(RedisUnavailableError)
      expect(Date.now() - started).toBeLessThan(50)
    } finally {
      redis.resume()
    }
  })

  it('throws RedisUnavailableError without a warning once closed', async () => {
    const warn = vi.fn()
    const connection = connect({ logger: { warn } })
    await connection.close()
    await expect(createRedisTokenStore(connection).get('k')).rejects.toBeInstanceOf(RedisUnavailableError)
    expect(warn).not.toHaveBeenCalled()
  })

  it('passes an error Redis answered through, without counting it as an outage', async () => {
    const connection = connect()
    await redis.command('SET', 'vr:token:v:k', 'x')
    await redis.command('LPUSH', 'vr:cache:v:list', 'x')
    await expect(createRedisCache(connection).get('list')).rejects.toThrow(/WRONGTYPE/)
    expect(connection.available).toBe(true)
  })
})
