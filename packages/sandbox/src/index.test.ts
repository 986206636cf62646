import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox, SandboxOptionError } from './index.ts'

describe('createSandbox', () => {
  let sb: Sandbox
  beforeAll(async () => {
    sb = await createSandbox()
  })
  afterAll(() => sb.close())

  it('listens on an ephemeral loopback port with the default credentials', () => {
    expect(sb.origin).toBe(`http://127.0.0.1:${sb.port}`)
    expect(sb.port).toBeGreaterThan(0)
    expect(sb.clientId).toBe('sandbox-client-id')
    expect(sb.clientSecret).toBe('sandbox-client-secret')
    expect(sb.websiteId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('serves a token and a page of reviews with it', async () => {
    const tokenRes = await fetch(`${sb.origin}/realms/skeepers/protocol/openid-connect/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${sb.clientId}:${sb.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', audience: 'verified-reviews' }),
    })
    const { access_token } = await tokenRes.json()
    const res = await fetch(`${sb.origin}/verified-reviews/v1/published/products/reviews?limit=20`, {
      headers: { Authorization: `Bearer ${access_token}` },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toHaveLength(20)
    expect(res.headers.get('link')).toContain('rel="next"')
  })
})

describe('createSandbox options', () => {
  it('derive the website id from the seed', async () => {
    const [a, b, c] = await Promise.all([
      createSandbox({ seed: 4 }),
      createSandbox({ seed: 4 }),
      createSandbox({ seed: 5 }),
    ])
    try {
      expect(a.websiteId).toBe(b.websiteId)
      expect(a.websiteId).not.toBe(c.websiteId)
    } finally {
      await Promise.all([a.close(), b.close(), c.close()])
    }
  })

  it('take the given credentials and website id', async () => {
    const websiteId = '0b0c7a6e-3a8f-4f61-9a55-1d2b8f1c0e21'
    const sb = await createSandbox({ clientId: 'id', clientSecret: 'secret', websiteId })
    await sb.close()
    expect([sb.clientId, sb.clientSecret, sb.websiteId]).toEqual(['id', 'secret', websiteId])
  })

  it('take credentials with spaces, colons, percent signs and non-ASCII characters', async () => {
    const credentials = { clientId: 'shop:1 é', clientSecret: 'p+ss%20 w:rd-é€', genesisSecret: 'g e+n%:ß' }
    const sb = await createSandbox(credentials)
    await sb.close()
    expect({ clientId: sb.clientId, clientSecret: sb.clientSecret, genesisSecret: sb.genesisSecret }).toEqual(
      credentials,
    )
  })

  it('refuse credentials that are empty or hold control characters or lone surrogates, naming the option', async () => {
    await expect(createSandbox({ clientSecret: 'line\nbreak' })).rejects.toMatchObject({
      option: 'clientSecret',
    })
    await expect(createSandbox({ genesisSecret: 'half \ud800' })).rejects.toMatchObject({
      option: 'genesisSecret',
    })
    await expect(createSandbox({ clientId: '' })).rejects.toMatchObject({ option: 'clientId' })
  })

  it('are refused with an error naming the bad option', async () => {
    await expect(createSandbox({ rateLimit: -1 })).rejects.toThrow(SandboxOptionError)
    await expect(createSandbox({ websiteId: 'nope' })).rejects.toMatchObject({ option: 'websiteId' })
    await expect(createSandbox({ port: 70000 })).rejects.toMatchObject({ option: 'port' })
    await expect(createSandbox({ products: 0 })).rejects.toMatchObject({ option: 'products' })
    await expect(createSandbox({ reviews: -1 })).rejects.toMatchObject({ option: 'reviews' })
  })

  it('serve a catalogue of the size asked for, and keep it through a reset', async () => {
    const sb = await createSandbox({ seed: 3, products: 250, reviews: 1200 })
    try {
      await sb.reset()
      const tokenRes = await fetch(`${sb.origin}/realms/skeepers/protocol/openid-connect/token`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`${sb.clientId}:${sb.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', audience: 'verified-reviews' }),
      })
      const { access_token } = await tokenRes.json()
      const res = await fetch(
        `${sb.origin}/verified-reviews/v1/published/products?limit=200&desc=product_variation_id`,
        {
          headers: { Authorization: `Bearer ${access_token}` },
        },
      )
      expect(((await res.json()) as { product_variation_id: string }[])[0]?.product_variation_id).toBe(
        'SKU-250',
      )
    } finally {
      await sb.close()
    }
  })
})
