import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { APIConnectionError, createClient } from '@verified-reviews/core'
import { describe, expect, it } from 'vitest'

const WEBSITE = '5f0c3e6a-1b2c-4d5e-8f90-a1b2c3d4e5f6'

function listening(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  )
}

/** A port nothing listens on: one a server just let go. */
async function closedPort(): Promise<number> {
  const server = createServer()
  const port = await listening(server)
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function failure(call: Promise<unknown>): Promise<APIConnectionError> {
  const error = await call.catch((thrown: unknown) => thrown)
  expect(error).toBeInstanceOf(APIConnectionError)
  return error as APIConnectionError
}

describe('APIConnectionError', () => {
  it('names the address it could not reach and the code of the refusal', async () => {
    const port = await closedPort()
    const vr = createClient({ legacyUrl: `http://127.0.0.1:${port}/v1`, websiteId: WEBSITE, maxRetries: 0 })
    const error = await failure(vr.legacy.products.ratings.get({ ref: ['SKU-1'] }))
    expect(error.message).toBe(
      `Connecting to legacy at GET http://127.0.0.1:${port}/v1/websites/${WEBSITE}/products/ratings?ref=SKU-1 failed: fetch failed (ECONNREFUSED)`,
    )
    expect(error.code).toBe('ECONNREFUSED')
  })

  it('names the address without its credentials', async () => {
    const port = await closedPort()
    const vr = createClient({
      genesisUrl: `http://127.0.0.1:${port}/genesis`,
      genesisSecret: 'a-genesis-secret-for-tests',
      websiteId: WEBSITE,
      maxRetries: 0,
    })
    const error = await failure(vr.genesis.website.get())
    expect(error.message).toContain(
      `at GET http://127.0.0.1:${port}/genesis/website?idWebsite=${WEBSITE}&token=[REDACTED] failed`,
    )
    expect(error.message).toContain('(ECONNREFUSED)')
  })

  it('names the address and the code of an answer cut short', async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' })
      response.write('{"data":')
      setTimeout(() => response.socket?.destroy(), 20)
    })
    const port = await listening(server)
    try {
      const vr = createClient({ legacyUrl: `http://127.0.0.1:${port}/v1`, websiteId: WEBSITE, maxRetries: 0 })
      const error = await failure(vr.legacy.products.ratings.get())
      expect(error.message).toMatch(
        new RegExp(
          `^Reading the answer of legacy at GET http://127\\.0\\.0\\.1:${port}/v1/websites/${WEBSITE}/products/ratings failed: .+ \\(UND_ERR_SOCKET\\)$`,
        ),
      )
      expect(error.code).toBe('UND_ERR_SOCKET')
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
