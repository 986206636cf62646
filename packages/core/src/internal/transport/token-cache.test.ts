import { describe, expect, it } from 'vitest'
import type { StoredToken, TokenStore } from '../base/shared-state.ts'
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

/** A token store in memory, as several instances would share one in Redis. */
function sharedStore() {
  const tokens = new Map<string, StoredToken>()
  const locks = new Set<string>()
  const store: TokenStore = {
    get: async (key) => tokens.get(key),
    set: async (key, token) => {
      tokens.set(key, token)
    },
    delete: async (key, value) => {
      if (tokens.get(key)?.value === value) tokens.delete(key)
    },
    lock: async (key) => {
      if (locks.has(key)) return undefined
      locks.add(key)
      return { release: async () => void locks.delete(key) }
    },
  }
  return { store, tokens, locks }
}

/** A cache of one instance over a shared store; its fetches are counted in `issued`. */
function instance(store: TokenStore, issued: string[], name: string, delayMs = 0) {
  return new TokenCache(
    async (): Promise<AccessToken> => {
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
      const value = `${name}-${issued.length + 1}`
      issued.push(value)
      return { value, issuedAt: Date.now(), expiresAt: Date.now() + 3_600_000 }
    },
    Date.now,
    { store, key: 'published-token:id@https://auth.test/token', pollInterval: 5 },
  )
}

describe('TokenCache with a shared store', () => {
  it('lets two instances that ask at once share one token', async () => {
    const { store } = sharedStore()
    const issued: string[] = []
    const a = instance(store, issued, 'a', 30)
    const b = instance(store, issued, 'b', 30)
    const [tokenA, tokenB] = await Promise.all([a.get(), b.get()])
    expect(tokenA).toBe(tokenB)
    expect(issued).toHaveLength(1)
  })

  it('takes the token another instance stored instead of fetching one', async () => {
    const { store } = sharedStore()
    const issued: string[] = []
    await instance(store, issued, 'a').get()
    expect(await instance(store, issued, 'b').get()).toBe('a-1')
    expect(issued).toEqual(['a-1'])
  })

  it('drops a refused token from the store and stores the new one', async () => {
    const { store, tokens } = sharedStore()
    const issued: string[] = []
    const a = instance(store, issued, 'a')
    await a.get()
    a.invalidate('a-1')
    expect(await a.get()).toBe('a-2')
    expect([...tokens.values()].map((token) => token.value)).toEqual(['a-2'])
  })

  it('does not take a refused token back from the store before its deletion lands', async () => {
    const { store } = sharedStore()
    const issued: string[] = []
    const slowDelete: TokenStore = { ...store, delete: () => new Promise(() => {}) }
    const a = instance(slowDelete, issued, 'a')
    await a.get()
    a.invalidate('a-1')
    expect(await a.get()).toBe('a-2')
  })

  it('fetches its own token when the store fails', async () => {
    const issued: string[] = []
    const down = new Error('redis is down')
    const failing: TokenStore = {
      get: () => Promise.reject(down),
      set: () => Promise.reject(down),
      delete: () => Promise.reject(down),
      lock: () => Promise.reject(down),
    }
    expect(await instance(failing, issued, 'a').get()).toBe('a-1')
  })

  it('fetches its own token when another instance holds the lock past the wait', async () => {
    const { store, locks } = sharedStore()
    locks.add('published-token:id@https://auth.test/token')
    const issued: string[] = []
    const cache = new TokenCache(
      async (): Promise<AccessToken> => {
        issued.push('own')
        return { value: 'own', issuedAt: Date.now(), expiresAt: undefined }
      },
      Date.now,
      { store, key: 'published-token:id@https://auth.test/token', pollInterval: 5, waitTimeout: 50 },
    )
    expect(await cache.get()).toBe('own')
  })
})
