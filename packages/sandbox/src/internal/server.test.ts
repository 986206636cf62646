import { request } from 'node:http'
import { connect } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../index.ts'

const PUBLISHED_TOKEN = '/realms/skeepers/protocol/openid-connect/token'

let sb: Sandbox
beforeAll(async () => {
  sb = await createSandbox({ seed: 3 })
})
afterAll(() => sb.close())
afterEach(() => sb.reset())

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`
}

function postToken(form: Record<string, string>, secret = sb.clientSecret) {
  return fetch(`${sb.origin}${PUBLISHED_TOKEN}`, {
    method: 'POST',
    headers: { Authorization: basic(sb.clientId, secret) },
    body: new URLSearchParams(form),
  })
}

const admin = (path: string, init?: RequestInit) => fetch(`${sb.origin}/__sandbox/${path}`, init)
const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
})

describe('server', () => {
  it('answers an unknown path with a JSON 404', async () => {
    const res = await fetch(`${sb.origin}/nowhere`)
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ status: 404, error: 'not_found' })
  })

  it('answers a wrong method with a JSON 405 listing the allowed ones', async () => {
    const res = await fetch(`${sb.origin}${PUBLISHED_TOKEN}`)
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST')
    expect(await res.json()).toMatchObject({ error: 'method_not_allowed' })
  })

  it('reads //host/path as a path, never as another host', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const { hostname, port } = new URL(sb.origin)
      request({ host: hostname, port, path: '//example.com/__sandbox/stats' }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
        .on('error', reject)
        .end()
    })
    expect(status).toBe(404)
  })

  it('answers a request it cannot parse with a JSON 400', async () => {
    const { hostname, port } = new URL(sb.origin)
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname)
      let received = ''
      socket.on('data', (chunk) => {
        received += chunk
      })
      socket.on('end', () => resolve(received))
      socket.on('error', reject)
      socket.write('HELLO\r\n\r\n')
    })
    const [head = '', body = ''] = text.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 400 /)
    expect(JSON.parse(body)).toMatchObject({ status: 400, error: 'invalid_body' })
  })

  it('refuses a body over 1 MiB with a JSON 413', async () => {
    const res = await fetch(`${sb.origin}/__sandbox/product-reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(1024 * 1024 + 1),
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({ status: 413, error: 'invalid_body' })
  })

  it('counts API requests per operation, errors included, and not admin ones', async () => {
    await postToken({ grant_type: 'client_credentials', audience: 'verified-reviews' })
    await postToken({ grant_type: 'password', audience: 'verified-reviews' })
    await admin('faults')
    const stats = await (await admin('stats')).json()
    expect(stats).toEqual({
      total: 2,
      operations: { 'token.published': 2 },
      rateLimited: 0,
      servingMs: expect.any(Number),
    })
  })

  it('counts the time it served API requests, overlapping ones once, an injected latency included', async () => {
    await admin('faults', json([{ operation: 'token.published', latencyMs: 300, count: 2 }]))
    const started = performance.now()
    await Promise.all([
      postToken({ grant_type: 'client_credentials', audience: 'verified-reviews' }),
      postToken({ grant_type: 'client_credentials', audience: 'verified-reviews' }),
    ])
    const waited = performance.now() - started
    const { servingMs } = (await (await admin('stats')).json()) as { servingMs: number }
    // Two requests of 300 ms at once: some 300 ms, not 600, and never more than the client waited.
    expect(servingMs).toBeGreaterThanOrEqual(295)
    expect(servingMs).toBeLessThanOrEqual(waited + 1)
    expect(servingMs).toBeLessThan(590)
  })

  it('zeroes the statistics on DELETE', async () => {
    await postToken({ grant_type: 'client_credentials', audience: 'verified-reviews' })
    expect((await admin('stats', { method: 'DELETE' })).status).toBe(204)
    expect(await (await admin('stats')).json()).toEqual({
      total: 0,
      operations: {},
      rateLimited: 0,
      servingMs: 0,
    })
  })

  it('answers an injected status as a JSON error, for as many requests as the rule counts', async () => {
    await admin('faults', json([{ operation: 'token.published', status: 503, count: 1 }]))
    const hit = await postToken({ grant_type: 'client_credentials', audience: 'verified-reviews' })
    expect(hit.status).toBe(503)
    expect(await hit.json()).toMatchObject({ status: 503, error: 'server_error' })
    const next = await postToken({ grant_type: 'client_credentials', audience: 'verified-reviews' })
    expect(next.status).toBe(200)
  })

  it('adds Retry-After to an injected 429', async () => {
    await admin('faults', json([{ operation: '*', status: 429 }]))
    const res = await postToken({ grant_type: 'client_credentials', audience: 'verified-reviews' })
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('1')
  })

  it('sends half of a truncated body under the full Content-Length, then closes', async () => {
    await admin('faults', json([{ operation: 'media', truncate: true }]))
    const outcome = await new Promise<{ declared: number; received: number; aborted: boolean }>((resolve) => {
      const req = request(`${sb.origin}/__sandbox/media/abc-1-large.svg`, (res) => {
        let received = 0
        res.on('data', (chunk: Buffer) => {
          received += chunk.length
        })
        const done = (aborted: boolean) =>
          resolve({ declared: Number(res.headers['content-length']), received, aborted })
        res.on('aborted', () => done(true))
        res.on('error', () => done(true))
        res.on('end', () => done(false))
      })
      req.on('error', () => resolve({ declared: 0, received: 0, aborted: true }))
      req.end()
    })
    expect(outcome.aborted).toBe(true)
    expect(outcome.received).toBe(Math.floor(outcome.declared / 2))
  })

  it('lists and clears the fault rules', async () => {
    await admin('faults', json([{ operation: 'media', status: 500, rate: 0.5 }]))
    expect(await (await admin('faults')).json()).toEqual([
      { operation: 'media', status: 500, rate: 0.5, hits: 0 },
    ])
    expect((await admin('faults', { method: 'DELETE' })).status).toBe(204)
    expect(await (await admin('faults')).json()).toEqual([])
  })

  it('refuses an invalid fault rule, naming the member', async () => {
    const res = await admin('faults', json([{ operation: 'media', status: 'boom' }]))
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'invalid_body', field: '[0].status' })
  })
})

describe('rate limit', () => {
  let limited: Sandbox
  beforeAll(async () => {
    limited = await createSandbox({ rateLimit: 2 })
  })
  afterAll(() => limited.close())

  it('answers 429 with Retry-After above the per-second limit, and rate-limit headers on every answer', async () => {
    const url = `${limited.origin}/purchase-event/websites/${limited.websiteId}/purchase-events`
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => fetch(url, { method: 'POST', body: '[]' })),
    )
    const refused = answers.filter((res) => res.status === 429)
    expect(refused.length).toBeGreaterThan(0)
    expect(Number(refused[0]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(await refused[0]?.json()).toMatchObject({ status: 429, error: 'rate_limited' })
    for (const res of answers) expect(res.headers.get('ratelimit-limit')).toBe('2')
    expect(answers.every((res) => res.headers.get('x-ratelimit-limit-minute') === '120')).toBe(true)
  })

  it('counts the requests its rate limit refused in its statistics', async () => {
    await limited.reset()
    const url = `${limited.origin}/purchase-event/websites/${limited.websiteId}/purchase-events`
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => fetch(url, { method: 'POST', body: '[]' })),
    )
    const refused = answers.filter((res) => res.status === 429).length
    const stats = await (await fetch(`${limited.origin}/__sandbox/stats`)).json()
    expect(refused).toBeGreaterThan(0)
    expect(stats).toMatchObject({ total: 12, rateLimited: refused })
  })

  it('does not limit the token endpoints', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${limited.origin}${PUBLISHED_TOKEN}`, {
          method: 'POST',
          headers: { Authorization: basic(limited.clientId, limited.clientSecret) },
          body: new URLSearchParams({ grant_type: 'client_credentials', audience: 'verified-reviews' }),
        }),
      ),
    )
    expect(answers.map((res) => res.status)).toEqual(new Array(8).fill(200))
    expect(answers[0]?.headers.get('ratelimit-limit')).toBeNull()
  })
})
