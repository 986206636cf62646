import { describe, expect, it } from 'vitest'
import { type AccessToken, TokenCache } from './token-cache.ts'

function setup(lifetimeMs: number | null = 3_600_000) {
  const clock = { now: 0 }
  const issued: string[] = []
  let fail = false
  let release: (() => void) | undefined
  let hold = false
  const cache = new TokenCache(
    async (): Promise<AccessToken> => {
      if (hold) await new Promise<void>((resolve) => (release = resolve))
      if (fail) throw new Error('token server down')
      const value = `token-${issued.length + 1}`
      issued.push(value)
      return {
        value,
        issuedAt: clock.now,
        expiresAt: lifetimeMs === null ? undefined : clock.now + lifetimeMs,
      }
    },
    () => clock.now,
  )
  return {
    cache,
    clock,
    issued,
    failNext: (value: boolean) => {
      fail = value
    },
    holdNext: (value: boolean) => {
      hold = value
    },
    release: () => release?.(),
  }
}

describe('TokenCache', () => {
  it('fetches a token on first use and then reuses it', async () => {
    const { cache, issued } = setup()
    expect(await cache.get()).toBe('token-1')
    expect(await cache.get()).toBe('token-1')
    expect(issued).toEqual(['token-1'])
  })

  it('shares one token request among concurrent callers', async () => {
    const { cache, issued } = setup()
    const tokens = await Promise.all([cache.get(), cache.get(), cache.get(), cache.get()])
    expect(tokens).toEqual(['token-1', 'token-1', 'token-1', 'token-1'])
    expect(issued).toHaveLength(1)
  })

  it('keeps the token until the advisory window', async () => {
    const { cache, clock, issued } = setup()
    await cache.get()
    clock.now = 3_600_000 - 121_000
    await cache.get()
    expect(issued).toHaveLength(1)
  })

  it('answers with the current token and refreshes in the background inside the advisory window', async () => {
    const { cache, clock, issued } = setup()
    await cache.get()
    clock.now = 3_600_000 - 60_000
    expect(await cache.get()).toBe('token-1')
    await Promise.resolve()
    expect(issued).toEqual(['token-1', 'token-2'])
    expect(await cache.get()).toBe('token-2')
  })

  it('waits for a new token inside the mandatory window', async () => {
    const { cache, clock } = setup()
    await cache.get()
    clock.now = 3_600_000 - 10_000
    expect(await cache.get()).toBe('token-2')
  })

  it('waits for a new token once the token has expired', async () => {
    const { cache, clock } = setup()
    await cache.get()
    clock.now = 4_000_000
    expect(await cache.get()).toBe('token-2')
  })

  it('scales the windows down for short-lived tokens', async () => {
    const { cache, clock, issued } = setup(20_000)
    await cache.get()
    clock.now = 10_000
    await cache.get()
    expect(issued).toHaveLength(1)
  })

  it('keeps serving the current token when a background refresh fails', async () => {
    const { cache, clock, failNext } = setup()
    await cache.get()
    clock.now = 3_600_000 - 60_000
    failNext(true)
    expect(await cache.get()).toBe('token-1')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(await cache.get()).toBe('token-1')
  })

  it('throws the token error to callers that must wait', async () => {
    const { cache, failNext } = setup()
    failNext(true)
    await expect(cache.get()).rejects.toThrow('token server down')
  })

  it('tries again after a failed token request', async () => {
    const { cache, failNext } = setup()
    failNext(true)
    await expect(cache.get()).rejects.toThrow()
    failNext(false)
    expect(await cache.get()).toBe('token-1')
  })

  it('keeps a token without expiry until it is invalidated', async () => {
    const { cache, clock } = setup(null)
    await cache.get()
    clock.now = 10 ** 12
    expect(await cache.get()).toBe('token-1')
    cache.invalidate('token-1')
    expect(await cache.get()).toBe('token-2')
  })

  it('drops an invalidated token and fetches a new one', async () => {
    const { cache } = setup()
    await cache.get()
    cache.invalidate('token-1')
    expect(await cache.get()).toBe('token-2')
  })

  it('ignores the invalidation of a token that was already replaced', async () => {
    const { cache, issued } = setup()
    await cache.get()
    cache.invalidate('token-1')
    await cache.get()
    cache.invalidate('token-1')
    expect(await cache.get()).toBe('token-2')
    expect(issued).toHaveLength(2)
  })

  it('makes callers refused together share one new token', async () => {
    const { cache, issued, holdNext, release } = setup()
    await cache.get()
    holdNext(true)
    cache.invalidate('token-1')
    const waiting = [cache.get(), cache.get(), cache.get()]
    cache.invalidate('token-1')
    await Promise.resolve()
    release()
    expect(await Promise.all(waiting)).toEqual(['token-2', 'token-2', 'token-2'])
    expect(issued).toHaveLength(2)
  })
})
