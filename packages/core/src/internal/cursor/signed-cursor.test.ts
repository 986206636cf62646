import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { ValidationError } from '../base/errors.ts'
import { createClient } from '../client/client.ts'
import {
  CLIENT_INTERNALS,
  type CursorScope,
  clientInternals,
  cursorSigner,
  cursorSignerFromSecret,
  deriveClientSecretCursorKey,
} from './signed-cursor.ts'

const SECRET = 'a-client-secret-of-the-shop'
const scope: CursorScope = { kind: 'product', id: 'SKU-001', sort: 'newest', rates: [4, 5], limit: 10 }
const signer = cursorSignerFromSecret(SECRET)

/** Replaces the character at `index` with another one of the same alphabet. */
function flip(text: string, index: number): string {
  const char = text.charAt(index)
  return text.slice(0, index) + (char === 'A' ? 'B' : 'A') + text.slice(index + 1)
}

describe('cursorSignerFromSecret', () => {
  it('opens a cursor it signed for the same list and page size', async () => {
    const signed = await signer.sign(scope, 'api-cursor-1')
    expect(await signer.open(scope, signed)).toBe('api-cursor-1')
  })

  it('gives a cursor that fits a page URL and the endpoint’s cursor shape', async () => {
    const signed = await signer.sign(scope, '~vr1~eyJiZWZvcmUiOiIyMDI2In0')
    expect(signed).toMatch(/^[\x21-\x7e]{1,1024}$/)
    expect(signed).not.toMatch(/[<>"'`\\]/)
  })

  it('opens a cursor whatever the order of the rates, as the page URL normalizes them', async () => {
    const signed = await signer.sign(scope, 'c')
    expect(await signer.open({ ...scope, rates: [5, 4, 5] }, signed)).toBe('c')
  })

  it.each([
    ['product', { id: 'SKU-002' }],
    ['kind of list', { kind: 'brand' as const }],
    ['sort', { sort: 'oldest' as const }],
    ['rate filter', { rates: [5] as const }],
    ['rate filter, emptied', { rates: [] }],
    ['limit', { limit: 50 }],
  ])('refuses a cursor signed for another %s', async (_name, change) => {
    const signed = await signer.sign(scope, 'api-cursor-1')
    expect(await signer.open({ ...scope, ...change }, signed)).toBeUndefined()
  })

  it('refuses a cursor whose upstream part was changed', async () => {
    const signed = await signer.sign(scope, 'api-cursor-1')
    expect(await signer.open(scope, `${signed.slice(0, -1)}2`)).toBeUndefined()
    expect(await signer.open(scope, `${signed}0`)).toBeUndefined()
  })

  it('refuses a cursor whose signature was changed', async () => {
    const signed = await signer.sign(scope, 'api-cursor-1')
    expect(await signer.open(scope, flip(signed, 10))).toBeUndefined()
  })

  it('refuses a cursor signed with a key from another secret', async () => {
    const signed = await cursorSignerFromSecret('another-secret-entirely').sign(scope, 'api-cursor-1')
    expect(await signer.open(scope, signed)).toBeUndefined()
  })

  it.each([
    ['an API cursor as it is', 'api-cursor-1'],
    ['a continuation cursor as it is', '~vr1~eyJiZWZvcmUiOiIyMDI2LTAxLTAxIiwic2tpcCI6W10sInJhdGVzIjpbXX0'],
    ['the prefix alone', 's1.'],
    ['a signature without a cursor', `s1.${'A'.repeat(43)}.`],
    ['a short signature', `s1.${'A'.repeat(42)}.c`],
    ['a signature that is not base64url', `s1.${'*'.repeat(43)}.c`],
  ])('refuses %s', async (_name, cursor) => {
    expect(await signer.open(scope, cursor)).toBeUndefined()
  })

  it('passes no cursor through as none', async () => {
    expect(await signer.sign(scope, undefined)).toBeUndefined()
    expect(await signer.sign(scope, null)).toBeUndefined()
    expect(await signer.open(scope, undefined)).toBeUndefined()
  })
})

describe('the cursor signer of a client', () => {
  it('derives the same key in every client of the same secret, so the endpoint and the pages agree', async () => {
    const signed = await cursorSigner(createClient({ clientId: 'id', clientSecret: SECRET })).sign(scope, 'c')
    const other = cursorSigner(createClient({ clientId: 'id', clientSecret: SECRET }))
    expect(await other.open(scope, signed)).toBe('c')
  })

  it('opens on another instance, its key derived anew from the same credentials, the cursors a client signed', async () => {
    const signed = await cursorSigner(createClient({ clientId: 'id', clientSecret: SECRET })).sign(scope, 'c')
    // A fresh copy of the modules: another server process, with nothing derived yet.
    vi.resetModules()
    const fresh = await import('../client/client.ts')
    const freshSigning = await import('./signed-cursor.ts')
    const other = freshSigning.cursorSigner(fresh.createClient({ clientId: 'id', clientSecret: SECRET }))
    expect(await other.open(scope, signed)).toBe('c')
  })

  it('derives its key from the client secret so that the old cheap derivation (HKDF) cannot reproduce it', async () => {
    const signed = await cursorSigner(createClient({ clientId: 'id', clientSecret: SECRET })).sign(scope, 'c')
    // What a guess of the client secret cost before: one HKDF and one HMAC.
    expect(await cursorSignerFromSecret(SECRET).open(scope, signed)).toBeUndefined()
  })

  it('derives its key from the client secret through 600,000 iterations of PBKDF2-SHA-256', async () => {
    const deriveBits = vi.spyOn(globalThis.crypto.subtle, 'deriveBits')
    try {
      await deriveClientSecretCursorKey('id', 'a-secret-derived-here')
      const iterations = deriveBits.mock.calls
        .map(([algorithm]) => algorithm as Pbkdf2Params)
        .filter((algorithm) => algorithm.name === 'PBKDF2' && algorithm.hash === 'SHA-256')
        .reduce((sum, algorithm) => sum + algorithm.iterations, 0)
      expect(iterations).toBe(600_000)
    } finally {
      deriveBits.mockRestore()
    }
  })

  it('derives the key of a client secret once per process, however many clients use it', async () => {
    const subtle = globalThis.crypto.subtle
    const derivations = [vi.spyOn(subtle, 'deriveBits'), vi.spyOn(subtle, 'deriveKey')]
    const count = () => derivations.reduce((sum, spy) => sum + spy.mock.calls.length, 0)
    try {
      const credentials = { clientId: 'id', clientSecret: 'a-secret-of-this-test-alone' }
      const signed = await cursorSigner(createClient(credentials)).sign(scope, 'c')
      const once = count()
      expect(once).toBeGreaterThan(0)
      const second = cursorSigner(createClient(credentials))
      expect(await second.open(scope, signed)).toBe('c')
      await second.sign(scope, 'd')
      expect(count()).toBe(once)
    } finally {
      for (const spy of derivations) spy.mockRestore()
    }
  })

  it('salts the key of a client secret with the client id, so that no table of guesses serves every shop', async () => {
    const signed = await cursorSigner(createClient({ clientId: 'id', clientSecret: SECRET })).sign(scope, 'c')
    const otherShop = cursorSigner(createClient({ clientId: 'another-id', clientSecret: SECRET }))
    expect(await otherShop.open(scope, signed)).toBeUndefined()
  })

  it('takes cursorSecret from VERIFIED_REVIEWS_CURSOR_SECRET', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_CURSOR_SECRET', 'a-cursor-secret-from-the-env')
    try {
      const signed = await cursorSigner(createClient({ clientId: 'id', clientSecret: SECRET })).sign(
        scope,
        'c',
      )
      expect(await cursorSignerFromSecret('a-cursor-secret-from-the-env').open(scope, signed)).toBe('c')
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('uses the cursorSecret option instead of the client secret when given', async () => {
    const own = createClient({ clientId: 'id', clientSecret: SECRET, cursorSecret: 'a-cursor-secret-16+' })
    const signed = await cursorSigner(own).sign(scope, 'c')
    expect(await cursorSignerFromSecret('a-cursor-secret-16+').open(scope, signed)).toBe('c')
    expect(await signer.open(scope, signed)).toBeUndefined()
  })

  it('keeps its internals out of sight: not enumerable, not in JSON, holding no secret', () => {
    const client = createClient({ clientId: 'id', clientSecret: SECRET })
    expect(Object.keys(client)).not.toContain(CLIENT_INTERNALS)
    expect(Object.getOwnPropertySymbols(client).map((key) => key.description)).toEqual([
      '@verified-reviews/core.client-internals',
    ])
    expect(JSON.stringify(client)).not.toContain(SECRET)
    const internals = clientInternals(client)
    expect(JSON.stringify(internals)).not.toContain(SECRET)
    expect(Object.values(internals ?? {}).some((value) => value === SECRET)).toBe(false)
  })

  it('refuses to sign for a client without any secret, naming cursorSecret', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', '')
    try {
      const bare = createClient({ clientId: 'id' })
      await expect(cursorSigner(bare).sign(scope, 'c')).rejects.toMatchObject({
        name: 'ValidationError',
        field: 'cursorSecret',
      })
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('asks for cursorSecret with a client not made by createClient', () => {
    expect(() => cursorSigner({ products: {} })).toThrow(ValidationError)
    expect(() => cursorSigner({ products: {} })).toThrow(/cursorSecret/)
  })

  it('refuses a cursorSecret shorter than 16 characters', () => {
    expect(() => cursorSigner({}, 'short')).toThrow(/cursorSecret/)
    expect(() => createClient({ cursorSecret: 'short' })).toThrow(/cursorSecret/)
  })

  it('names VERIFIED_REVIEWS_CURSOR_SECRET when the secret it holds is shorter than 16 characters', () => {
    vi.stubEnv('VERIFIED_REVIEWS_CURSOR_SECRET', 'short')
    try {
      expect(() => createClient({ clientId: 'id', clientSecret: SECRET })).toThrow(
        /cursorSecret.*VERIFIED_REVIEWS_CURSOR_SECRET/,
      )
    } finally {
      vi.unstubAllEnvs()
    }
  })
})

describe('the signing module', () => {
  it('runs on Web Crypto alone: nothing of node: is imported', () => {
    const source = readFileSync(new URL('./signed-cursor.ts', import.meta.url), 'utf8')
    expect(source).not.toMatch(/from ['"]node:/)
    expect(source).toContain('crypto.subtle')
  })
})
