import { request } from 'node:http'
import { createSandbox, type Sandbox } from '@verified-reviews/sandbox'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

// Issue 9, finding 6: a web page must not reach the /__sandbox/ routes, neither by a cross-site
// request (CSRF: text/plain or form bodies, a foreign Origin) nor by DNS rebinding (a Host header
// naming the attacker's domain, resolved to 127.0.0.1).

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A request through node:http, which sends any Host, Origin and Content-Type as given. */
function send(
  sb: Sandbox,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const { hostname, port } = new URL(sb.origin)
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      )
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Asserts the README's JSON error with the given status, code and field. */
function expectRefusal(answer: Answer, status: number, error: string, field: string): void {
  expect(answer.status, answer.body).toBe(status)
  expect(String(answer.headers['content-type'])).toMatch(/^application\/json/)
  expect(JSON.parse(answer.body)).toMatchObject({ status, error, field, message: expect.any(String) })
}

const REVIEW = JSON.stringify([{ product_variation_id: 'SKU-001', review_content: 'posted by a web page' }])
const JSON_TYPE = { 'content-type': 'application/json' }

let sb: Sandbox

/** How many reviews `SKU-001` has, as the admin routes' own caller would see it. */
async function reviewCount(): Promise<number> {
  const token = await send(
    sb,
    'POST',
    '/realms/skeepers/protocol/openid-connect/token',
    {
      authorization: `Basic ${Buffer.from(`${sb.clientId}:${sb.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    'grant_type=client_credentials&audience=verified-reviews',
  )
  const { access_token } = JSON.parse(token.body) as { access_token: string }
  const products = await send(
    sb,
    'GET',
    '/verified-reviews/v1/published/products?product_variation_id=SKU-001',
    {
      authorization: `Bearer ${access_token}`,
    },
  )
  return (JSON.parse(products.body) as [{ ratings: { count_total: number } }])[0].ratings.count_total
}

beforeAll(async () => {
  sb = await createSandbox({ rateLimit: 0 })
})
afterAll(() => sb.close())
beforeEach(() => sb.reset())

describe('POST /__sandbox/ requires Content-Type: application/json', () => {
  it('refuses a text/plain body (what a cross-site fetch or form can send) with 415, adding nothing', async () => {
    const before = await reviewCount()
    const answer = await send(
      sb,
      'POST',
      '/__sandbox/product-reviews',
      { 'content-type': 'text/plain' },
      REVIEW,
    )
    expectRefusal(answer, 415, 'unsupported_media_type', 'content-type')
    expect(await reviewCount()).toBe(before)
  })

  it.each([
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'text/plain;charset=UTF-8',
    'application/jsonp',
    'application/json-seq',
  ])('refuses %s with 415', async (type) => {
    const answer = await send(sb, 'POST', '/__sandbox/faults', { 'content-type': type }, '[]')
    expectRefusal(answer, 415, 'unsupported_media_type', 'content-type')
  })

  it('refuses a POST without Content-Type, even without a body, and does not reset', async () => {
    await send(sb, 'POST', '/__sandbox/product-reviews', JSON_TYPE, REVIEW)
    const added = await reviewCount()
    expectRefusal(await send(sb, 'POST', '/__sandbox/reset'), 415, 'unsupported_media_type', 'content-type')
    expect(await reviewCount()).toBe(added)
  })

  it('accepts application/json in any case and with parameters', async () => {
    const answer = await send(
      sb,
      'POST',
      '/__sandbox/product-reviews',
      { 'content-type': 'Application/JSON; charset=utf-8' },
      REVIEW,
    )
    expect(answer.status, answer.body).toBe(201)
  })

  it('accepts an empty JSON POST on the routes that take no body', async () => {
    expect((await send(sb, 'POST', '/__sandbox/reset', JSON_TYPE)).status).toBe(204)
    expect((await send(sb, 'POST', '/__sandbox/tokens/expire', JSON_TYPE)).status).toBe(204)
  })
})

describe('/__sandbox/ answers only a loopback Host', () => {
  it('refuses a foreign Host (a DNS-rebinding page) with 403 on GET', async () => {
    const answer = await send(sb, 'GET', '/__sandbox/stats', { host: 'attacker.example:80' })
    expectRefusal(answer, 403, 'forbidden', 'host')
  })

  it('refuses a foreign Host with 403 on POST, adding nothing', async () => {
    const before = await reviewCount()
    const answer = await send(
      sb,
      'POST',
      '/__sandbox/product-reviews',
      { ...JSON_TYPE, host: `rebind.attacker.example:${sb.port}` },
      REVIEW,
    )
    expectRefusal(answer, 403, 'forbidden', 'host')
    expect(await reviewCount()).toBe(before)
  })

  it('refuses a foreign Host with 403 on DELETE', async () => {
    const answer = await send(sb, 'DELETE', '/__sandbox/faults', { host: 'attacker.example' })
    expectRefusal(answer, 403, 'forbidden', 'host')
  })

  it.each(['0.0.0.0', '192.168.1.20', 'localhost.attacker.example', '127.0.0.1.nip.io', 'localhost.'])(
    'refuses the Host %s',
    async (host) => {
      const answer = await send(sb, 'GET', '/__sandbox/stats', { host: `${host}:${sb.port}` })
      expectRefusal(answer, 403, 'forbidden', 'host')
    },
  )

  it.each(['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]'])(
    'accepts the Host %s with any port',
    async (host) => {
      for (const port of [`:${sb.port}`, ':8080', '']) {
        const answer = await send(sb, 'GET', '/__sandbox/stats', { host: `${host}${port}` })
        expect(answer.status, `${host}${port}: ${answer.body}`).toBe(200)
      }
    },
  )

  it('serves the review images whatever the Host: pages embed them', async () => {
    const answer = await send(sb, 'GET', '/__sandbox/media/abc-1-small.svg', {
      host: 'shop.example',
      origin: 'https://shop.example',
    })
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('image/svg+xml')
  })

  it('leaves the Published API to any Host', async () => {
    const answer = await send(sb, 'GET', '/verified-reviews/v1/published/products', { host: 'shop.example' })
    expect(answer.status).toBe(401)
  })
})

describe('/__sandbox/ refuses a foreign Origin', () => {
  it('refuses a POST from a page of another site with 403, leaving the faults alone', async () => {
    const answer = await send(
      sb,
      'POST',
      '/__sandbox/faults',
      { ...JSON_TYPE, origin: 'https://attacker.example' },
      JSON.stringify([{ operation: '*', status: 500 }]),
    )
    expectRefusal(answer, 403, 'forbidden', 'origin')
    expect(JSON.parse((await send(sb, 'GET', '/__sandbox/faults')).body)).toEqual([])
  })

  it('refuses a page of another port on the same machine (another local dev server)', async () => {
    const answer = await send(sb, 'POST', '/__sandbox/reset', {
      ...JSON_TYPE,
      origin: 'http://localhost:3000',
    })
    expectRefusal(answer, 403, 'forbidden', 'origin')
  })

  it('refuses Origin: null (sandboxed frames, data: and file: pages)', async () => {
    const answer = await send(sb, 'POST', '/__sandbox/reset', { ...JSON_TYPE, origin: 'null' })
    expectRefusal(answer, 403, 'forbidden', 'origin')
  })

  it('refuses a foreign Origin on GET too', async () => {
    const answer = await send(sb, 'GET', '/__sandbox/purchase-events', { origin: 'http://attacker.example' })
    expectRefusal(answer, 403, 'forbidden', 'origin')
  })

  it('accepts its own origin', async () => {
    const answer = await send(sb, 'POST', '/__sandbox/reset', { ...JSON_TYPE, origin: sb.origin })
    expect(answer.status, answer.body).toBe(204)
  })

  it('accepts no Origin at all (curl, scripts, server code)', async () => {
    expect((await send(sb, 'POST', '/__sandbox/reset', JSON_TYPE)).status).toBe(204)
  })
})

describe('hosts a sandbox is told about', () => {
  it('answers on a host given in allowedHosts, and on no other', async () => {
    const docker = await createSandbox({ allowedHosts: ['sandbox', 'Reviews.Internal'] })
    try {
      for (const host of ['sandbox:4010', 'reviews.internal']) {
        const answer = await send(docker, 'POST', '/__sandbox/reset', { ...JSON_TYPE, host })
        expect(answer.status, `${host}: ${answer.body}`).toBe(204)
      }
      const other = await send(docker, 'POST', '/__sandbox/reset', { ...JSON_TYPE, host: 'elsewhere' })
      expectRefusal(other, 403, 'forbidden', 'host')
    } finally {
      await docker.close()
    }
  })

  it('answers on the address it was bound to', async () => {
    const bound = await createSandbox({ host: '127.0.0.2' })
    try {
      expect(bound.origin).toBe(`http://127.0.0.2:${bound.port}`)
      const answer = await send(bound, 'GET', '/__sandbox/stats', { host: `127.0.0.2:${bound.port}` })
      expect(answer.status, answer.body).toBe(200)
    } finally {
      await bound.close()
    }
  })

  it('refuses an allowedHosts entry with a scheme or a port, naming it', async () => {
    await expect(createSandbox({ allowedHosts: ['http://sandbox'] })).rejects.toMatchObject({
      option: 'allowedHosts',
      message: expect.stringContaining('[0]'),
    })
    await expect(createSandbox({ allowedHosts: ['ok', 'sandbox:4010'] })).rejects.toThrow(/\[1\]/)
  })
})

describe('a sandbox bound to every interface', () => {
  it('warns, naming the real address it listens on', async () => {
    const warnings: string[] = []
    const open = await createSandbox({
      host: '0.0.0.0',
      logger: { warn: (message) => warnings.push(message) },
    })
    try {
      expect(open.address).toBe(`0.0.0.0:${open.port}`)
      expect(open.origin).toBe(`http://127.0.0.1:${open.port}`)
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain(`0.0.0.0:${open.port}`)
      expect(warnings[0]).toMatch(/every network interface/)
    } finally {
      await open.close()
    }
  })

  it('does not answer /__sandbox/ on Host 0.0.0.0', async () => {
    const open = await createSandbox({ host: '0.0.0.0', logger: { warn: () => {} } })
    try {
      const answer = await send(open, 'GET', '/__sandbox/stats', { host: `0.0.0.0:${open.port}` })
      expectRefusal(answer, 403, 'forbidden', 'host')
    } finally {
      await open.close()
    }
  })

  it('gives no warning on loopback', async () => {
    const warnings: string[] = []
    const closed = await createSandbox({ logger: { warn: (message) => warnings.push(message) } })
    await closed.close()
    expect(closed.address).toBe(`127.0.0.1:${closed.port}`)
    expect(warnings).toEqual([])
  })
})
