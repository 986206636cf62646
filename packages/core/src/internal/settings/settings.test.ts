import { afterEach, describe, expect, it, vi } from 'vitest'
import { ValidationError } from '../base/errors.ts'
import type { TokenStore } from '../base/shared-state.ts'
import { createMemoryCache } from '../cache/memory-store.ts'
import { DEFAULT_ADDRESSES } from './addresses.ts'
import type { ClientOptions } from './client-options.ts'
import { resolveSettings } from './settings.ts'

const SANDBOX = 'http://127.0.0.1:4010'

function refusal(options: unknown, env: Record<string, string> = {}): ValidationError {
  try {
    resolveSettings(options as ClientOptions, env)
  } catch (error) {
    if (error instanceof ValidationError) return error
    throw error
  }
  throw new Error('resolveSettings accepted the options')
}

describe('resolveSettings', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('gives the defaults and the production addresses without options or environment', () => {
    const settings = resolveSettings({}, {})
    expect(settings.addresses).toEqual(DEFAULT_ADDRESSES)
    expect(settings).toMatchObject({
      clientId: undefined,
      clientSecret: undefined,
      cursorSecret: undefined,
      websiteId: undefined,
      genesisSecret: undefined,
      maxConcurrency: 4,
      http: {
        fetch: undefined,
        timeout: 30_000,
        totalTimeout: 60_000,
        maxRetries: 2,
        maxRetryWait: 30_000,
        maxResponseBytes: 10 * 1024 * 1024,
        cache: undefined,
      },
    })
  })

  it.each([
    ['clientId', 'VERIFIED_REVIEWS_CLIENT_ID', 'an-id'],
    ['clientSecret', 'VERIFIED_REVIEWS_CLIENT_SECRET', 'a-secret'],
    ['cursorSecret', 'VERIFIED_REVIEWS_CURSOR_SECRET', 'a-cursor-secret-of-16+'],
    ['websiteId', 'VERIFIED_REVIEWS_WEBSITE_ID', 'a-website'],
    ['genesisSecret', 'VERIFIED_REVIEWS_GENESIS_SECRET', 'a-genesis-secret'],
  ] as const)('takes %s from %s, trimmed, when the option is not given', (key, variable, value) => {
    expect(resolveSettings({}, { [variable]: ` ${value}\n` })[key]).toBe(value)
  })

  it.each([
    ['clientId', 'VERIFIED_REVIEWS_CLIENT_ID'],
    ['clientSecret', 'VERIFIED_REVIEWS_CLIENT_SECRET'],
    ['cursorSecret', 'VERIFIED_REVIEWS_CURSOR_SECRET'],
    ['websiteId', 'VERIFIED_REVIEWS_WEBSITE_ID'],
    ['genesisSecret', 'VERIFIED_REVIEWS_GENESIS_SECRET'],
  ] as const)('prefers the option %s to %s', (key, variable) => {
    const option = 'the-option-of-16-chars'
    expect(resolveSettings({ [key]: option }, { [variable]: 'the-variable-of-16-chars' })[key]).toBe(option)
  })

  it('counts an empty or blank variable as unset', () => {
    const settings = resolveSettings({}, { VERIFIED_REVIEWS_CLIENT_ID: '', VERIFIED_REVIEWS_ORIGIN: '  ' })
    expect(settings.clientId).toBeUndefined()
    expect(settings.addresses).toEqual(DEFAULT_ADDRESSES)
  })

  it('reads nothing but the environment it is given', () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', 'from-the-process')
    expect(resolveSettings({}, {}).clientId).toBeUndefined()
  })

  it('moves every default address to VERIFIED_REVIEWS_ORIGIN, keeping its path', () => {
    const { addresses } = resolveSettings({}, { VERIFIED_REVIEWS_ORIGIN: SANDBOX })
    expect(addresses.publishedUrl).toBe(`${SANDBOX}/verified-reviews/v1/published`)
    expect(addresses.purchaseEventsTokenUrl).toBe(`${SANDBOX}/am/oauth2/alpha/access_token`)
  })

  it('prefers the origin option to VERIFIED_REVIEWS_ORIGIN, and an address set alone to both', () => {
    const { addresses } = resolveSettings(
      { origin: 'http://localhost:9000', legacyUrl: 'https://legacy.example/v1' },
      { VERIFIED_REVIEWS_ORIGIN: SANDBOX },
    )
    expect(addresses.publishedUrl).toBe('http://localhost:9000/verified-reviews/v1/published')
    expect(addresses.legacyUrl).toBe('https://legacy.example/v1')
  })

  it('keys the cache by the account, whichever gives the client id', () => {
    const store = createMemoryCache()
    const fromEnv = resolveSettings({ cache: store }, { VERIFIED_REVIEWS_CLIENT_ID: 'shop' })
    expect(fromEnv.http.cache).toMatchObject({ store, ttl: 300, staleIfError: 86_400, keyPrefix: 'vr:shop:' })
    const given = resolveSettings({ clientId: 'other', cache: { store, ttl: 60 } }, {})
    expect(given.http.cache).toMatchObject({
      store,
      ttl: 60,
      staleWhileRevalidate: 0,
      keyPrefix: 'vr:other:',
    })
  })

  it.each([
    [{ timeout: 0 }, 'timeout', /positive number of milliseconds/],
    [{ totalTimeout: -1 }, 'totalTimeout', /Infinity for none/],
    [{ maxRetries: 1.5 }, 'maxRetries', /integer from 0 to 100/],
    [{ maxRetries: 101 }, 'maxRetries', /integer from 0 to 100/],
    [{ maxRetryWait: -1 }, 'maxRetryWait', /0 or more/],
    [{ maxResponseBytes: 0 }, 'maxResponseBytes', /positive integer number of bytes/],
    [{ maxConcurrency: 65 }, 'maxConcurrency', /integer from 1 to 64/],
    [{ origin: 'localhost:4010' }, 'origin', /absolute http\(s\) URL/],
    [{ publishedUrl: 'ftp://example.com' }, 'publishedUrl', /absolute http\(s\) URL/],
    [{ tokenStore: { get: () => undefined } }, 'tokenStore', /get, set, delete and lock/],
    [{ rateBudget: {} }, 'rateBudget', /reserve and settle/],
    [{ cursorSecret: 'short' }, 'cursorSecret', /^cursorSecret: must be a string of at least 16 characters$/],
    [{ requestOptions: 'tags' }, 'requestOptions', /function of the operation/],
    [{ clientID: 'id' }, 'clientID', /did you mean clientId\?/],
  ])('refuses %o, naming %s', (options, field, message) => {
    const error = refusal(options)
    expect(error.field).toBe(field)
    expect(error.message).toMatch(message)
  })

  it.each([
    [{ VERIFIED_REVIEWS_ORIGIN: 'localhost:4010' }, 'origin', /absolute http\(s\) URL/],
    [
      { VERIFIED_REVIEWS_CURSOR_SECRET: 'short' },
      'cursorSecret',
      /^cursorSecret: must be a string of at least 16 characters \(VERIFIED_REVIEWS_CURSOR_SECRET\)$/,
    ],
  ])('refuses the environment %o, naming %s', (env, field, message) => {
    const error = refusal({}, env)
    expect(error.field).toBe(field)
    expect(error.message).toMatch(message)
  })

  it('leaves aside a bad variable that an option replaces', () => {
    const settings = resolveSettings(
      { cursorSecret: 'a-cursor-secret-of-16+', origin: SANDBOX },
      { VERIFIED_REVIEWS_CURSOR_SECRET: 'short', VERIFIED_REVIEWS_ORIGIN: 'nowhere' },
    )
    expect(settings.cursorSecret).toBe('a-cursor-secret-of-16+')
    expect(settings.addresses.publishedTokenUrl.startsWith(SANDBOX)).toBe(true)
  })

  it('ignores the variables no client setting reads', () => {
    expect(() =>
      resolveSettings({}, { VERIFIED_REVIEWS_REVALIDATE: '1h', VERIFIED_REVIEWS_FAIL_ON_ERROR: 'always' }),
    ).not.toThrow()
  })

  it('passes the hooks and stores through as given', () => {
    const tokenStore: TokenStore = {
      get: async () => undefined,
      set: async () => {},
      delete: async () => {},
      lock: async () => undefined,
    }
    const fetch = async () => new Response()
    const settings = resolveSettings({ tokenStore, fetch, headers: { 'x-shop': '1' } }, {})
    expect(settings.tokenStore).toBe(tokenStore)
    expect(settings.http.fetch).toBe(fetch)
    expect(settings.http.headers).toEqual({ 'x-shop': '1' })
  })
})
