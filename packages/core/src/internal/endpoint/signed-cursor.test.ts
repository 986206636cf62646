import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { createClient } from '../../client.ts'
import { ValidationError } from '../../errors.ts'
import {
  CLIENT_INTERNALS,
  type CursorScope,
  clientInternals,
  cursorSigner,
  cursorSignerFromSecret,
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
})

describe('the signing module', () => {
  it('runs on Web Crypto alone: nothing of node: is imported', () => {
    const source = readFileSync(new URL('./signed-cursor.ts', import.meta.url), 'utf8')
    expect(source).not.toMatch(/from ['"]node:/)
    expect(source).toContain('crypto.subtle')
  })
})
