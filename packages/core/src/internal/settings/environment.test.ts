import { afterEach, describe, expect, it, vi } from 'vitest'
import { ValidationError } from '../base/errors.ts'
import { defaultClient } from '../client/default-client.ts'
import { ENVIRONMENT_VARIABLES, missingCredentials, readEnvironment } from './environment.ts'
import { resolveSettings } from './settings.ts'

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('readEnvironment', () => {
  it('reads every setting from its variable, trimmed', () => {
    const env = readEnvironment({
      VERIFIED_REVIEWS_CLIENT_ID: ' id ',
      VERIFIED_REVIEWS_CLIENT_SECRET: 'secret\n',
      VERIFIED_REVIEWS_ORIGIN: 'http://127.0.0.1:4010',
      VERIFIED_REVIEWS_WEBSITE_ID: 'site',
      VERIFIED_REVIEWS_GENESIS_SECRET: 'genesis',
      VERIFIED_REVIEWS_CURSOR_SECRET: ' a-cursor-secret-16+ ',
      VERIFIED_REVIEWS_REVALIDATE_SECRET: 'revalidate-secret',
      CRON_SECRET: 'cron',
      VERIFIED_REVIEWS_REVALIDATE: '600',
      VERIFIED_REVIEWS_DIST_DIR: '.next-e2e',
      VERIFIED_REVIEWS_FAIL_ON_ERROR: 'true',
      VERIFIED_REVIEWS_BUILD_PRODUCTS: '/tmp/products.json',
      VERIFIED_REVIEWS_BUILD_BRAND_REVIEWS: 'Yes',
      VERIFIED_REVIEWS_LANGUAGES: ' en, FR de ',
    })
    expect(env).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
      origin: 'http://127.0.0.1:4010',
      websiteId: 'site',
      genesisSecret: 'genesis',
      cursorSecret: 'a-cursor-secret-16+',
      revalidateSecret: 'revalidate-secret',
      cronSecret: 'cron',
      revalidate: 600,
      distDir: '.next-e2e',
      failOnError: true,
      buildProducts: '/tmp/products.json',
      buildBrandReviews: true,
      replicaLanguages: ['en', 'fr', 'de'],
      client: {
        clientId: 'id',
        clientSecret: 'secret',
        origin: 'http://127.0.0.1:4010',
        websiteId: 'site',
        genesisSecret: 'genesis',
        cursorSecret: 'a-cursor-secret-16+',
      },
    })
  })

  it('counts unset, empty and blank variables as unset', () => {
    const env = readEnvironment({ VERIFIED_REVIEWS_CLIENT_ID: '', VERIFIED_REVIEWS_CLIENT_SECRET: '  ' })
    expect(env.clientId).toBeUndefined()
    expect(env.clientSecret).toBeUndefined()
    expect(env.origin).toBeUndefined()
    expect(env.failOnError).toBeUndefined()
  })

  it('reads the record it is given, and not the process environment', () => {
    vi.stubEnv('VERIFIED_REVIEWS_WEBSITE_ID', ' from-process ')
    expect(readEnvironment(process.env).websiteId).toBe('from-process')
    expect(readEnvironment({}).websiteId).toBeUndefined()
    expect(readEnvironment({}).client).toEqual({})
  })

  it('refuses a cursor secret shorter than 16 characters, naming the variable', () => {
    expect(() => readEnvironment({ VERIFIED_REVIEWS_CURSOR_SECRET: 'short' })).toThrow(
      /VERIFIED_REVIEWS_CURSOR_SECRET.*at least 16 characters/,
    )
  })

  it('refuses a revalidate time that is not a whole number of seconds, naming the variable', () => {
    expect(() => readEnvironment({ VERIFIED_REVIEWS_REVALIDATE: '1h' })).toThrow(ValidationError)
    expect(() => readEnvironment({ VERIFIED_REVIEWS_REVALIDATE: '1h' })).toThrow(
      /VERIFIED_REVIEWS_REVALIDATE.*whole number of seconds, not "1h"/,
    )
  })

  it.each([
    ['1', true],
    ['YES', true],
    ['no', false],
    ['0', false],
  ])('reads VERIFIED_REVIEWS_FAIL_ON_ERROR=%s as %s', (value, expected) => {
    expect(readEnvironment({ VERIFIED_REVIEWS_FAIL_ON_ERROR: value }).failOnError).toBe(expected)
  })

  it('refuses a fail-on-error value that is neither a yes nor a no', () => {
    expect(() => readEnvironment({ VERIFIED_REVIEWS_FAIL_ON_ERROR: 'always' })).toThrow(
      /VERIFIED_REVIEWS_FAIL_ON_ERROR/,
    )
  })

  it('reads VERIFIED_REVIEWS_BUILD_BRAND_REVIEWS as a yes or a no, and refuses anything else', () => {
    expect(readEnvironment({ VERIFIED_REVIEWS_BUILD_BRAND_REVIEWS: 'no' }).buildBrandReviews).toBe(false)
    expect(readEnvironment({ VERIFIED_REVIEWS_BUILD_BRAND_REVIEWS: '1' }).buildBrandReviews).toBe(true)
    expect(readEnvironment({}).buildBrandReviews).toBeUndefined()
    expect(() => readEnvironment({ VERIFIED_REVIEWS_BUILD_BRAND_REVIEWS: 'shops' })).toThrow(
      /VERIFIED_REVIEWS_BUILD_BRAND_REVIEWS.*not "shops"/,
    )
  })

  it('refuses a replica language that is none of the 13 of translated_review, naming the variable', () => {
    expect(() => readEnvironment({ VERIFIED_REVIEWS_LANGUAGES: 'en,xx' })).toThrow(
      /VERIFIED_REVIEWS_LANGUAGES.*not xx/,
    )
  })

  it('reads each variable once, and no other', () => {
    const asked: string[] = []
    const source = new Proxy(
      {
        VERIFIED_REVIEWS_CLIENT_ID: 'id',
        VERIFIED_REVIEWS_REVALIDATE: '60',
        VERIFIED_REVIEWS_LANGUAGES: 'en',
      },
      {
        get(target, name) {
          asked.push(String(name))
          return Reflect.get(target, name)
        },
      },
    )
    const env = readEnvironment(source)
    expect(env.clientId).toBe('id')
    expect(env.revalidate).toBe(60)
    expect(env.replicaLanguages).toEqual(['en'])
    expect(env.client).toEqual({ clientId: 'id' })
    expect(asked.sort()).toEqual(Object.values(ENVIRONMENT_VARIABLES).sort())
  })

  it('lists a variable for every setting', () => {
    const settings = Object.keys(readEnvironment({})).filter((key) => key !== 'client')
    expect(Object.keys(ENVIRONMENT_VARIABLES).sort()).toEqual(settings.sort())
  })
})

describe('missingCredentials', () => {
  it('names the credential variables that are not set', () => {
    expect(missingCredentials(readEnvironment({ VERIFIED_REVIEWS_CLIENT_SECRET: 's' }))).toEqual([
      'VERIFIED_REVIEWS_CLIENT_ID',
    ])
    expect(missingCredentials(readEnvironment({}))).toEqual([
      'VERIFIED_REVIEWS_CLIENT_ID',
      'VERIFIED_REVIEWS_CLIENT_SECRET',
    ])
    expect(
      missingCredentials(
        readEnvironment({ VERIFIED_REVIEWS_CLIENT_ID: 'i', VERIFIED_REVIEWS_CLIENT_SECRET: 's' }),
      ),
    ).toEqual([])
  })
})

describe('readEnvironment(record).client', () => {
  it('gives the client options the environment sets, and no key for the others', () => {
    const { client } = readEnvironment({
      VERIFIED_REVIEWS_CLIENT_ID: ' id ',
      VERIFIED_REVIEWS_ORIGIN: 'http://127.0.0.1:4010',
      VERIFIED_REVIEWS_REVALIDATE: '60',
    })
    expect(Object.entries(client)).toEqual([
      ['clientId', 'id'],
      ['origin', 'http://127.0.0.1:4010'],
    ])
  })

  it('holds what the settings resolver reads from the same record', () => {
    const record = {
      VERIFIED_REVIEWS_CLIENT_ID: ' id ',
      VERIFIED_REVIEWS_CLIENT_SECRET: 'secret',
      VERIFIED_REVIEWS_ORIGIN: 'http://127.0.0.1:4010',
      VERIFIED_REVIEWS_WEBSITE_ID: 'site',
      VERIFIED_REVIEWS_GENESIS_SECRET: '  ',
      VERIFIED_REVIEWS_CURSOR_SECRET: 'a-cursor-secret-16+',
    }
    const settings = resolveSettings({}, record)
    const { client } = readEnvironment(record)
    expect(client).toEqual({
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      origin: 'http://127.0.0.1:4010',
      websiteId: settings.websiteId,
      cursorSecret: settings.cursorSecret,
    })
    expect(settings.genesisSecret).toBeUndefined()
    // A client built from those options alone resolves to the same settings.
    expect(resolveSettings(client, {})).toEqual(settings)
  })
})

describe('defaultClient', () => {
  it('gives every caller the same client while the environment stays the same', () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', 'one')
    expect(defaultClient({ name: 'test-same' })).toBe(defaultClient({ name: 'test-same' }))
  })

  it('builds a new client when a variable changes', () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', 'one')
    const before = defaultClient({ name: 'test-change' })
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', 'two')
    expect(defaultClient({ name: 'test-change' })).not.toBe(before)
  })

  it('takes the settings of the process environment', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', 'id')
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', 'secret')
    vi.stubEnv('VERIFIED_REVIEWS_ORIGIN', 'http://127.0.0.1:1')
    const urls: string[] = []
    const fetch = (url: string) => {
      urls.push(url)
      return Promise.reject(new Error('no call'))
    }
    const client = defaultClient({ name: 'test-origin', fetch, maxRetries: 0 })
    await client.products.list({ limit: 1 }).catch(() => undefined)
    expect(urls).toEqual(['http://127.0.0.1:1/realms/skeepers/protocol/openid-connect/token'])
  })

  it('keeps clients of different names apart', () => {
    expect(defaultClient({ name: 'test-a' })).not.toBe(defaultClient({ name: 'test-b' }))
  })

  it('treats a blank credential as missing, as createClient does', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', '   ')
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', 'secret')
    const client = defaultClient({ name: 'test-blank', fetch: () => Promise.reject(new Error('no call')) })
    await expect(client.products.list({ limit: 1 })).rejects.toThrow(/clientId.*VERIFIED_REVIEWS_CLIENT_ID/)
  })
})
