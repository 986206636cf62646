import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { adminRefusal, allowedAdminHosts, hostOfHeader, isWildcardAddress } from './admin-guard.ts'
import { bearerToken } from './auth.ts'
import type { Route, SandboxRequest, SandboxResponse } from './context.ts'
import { errorCodeFor } from './faults.ts'
import { HttpError } from './http-error.ts'
import type { SandboxStore } from './state.ts'

/** The largest request body accepted (1 MiB). */
export const MAX_BODY_BYTES = 1024 * 1024

export interface RunningServer {
  server: Server
  origin: string
  port: number
  /** `address:port` as the system reports it: `0.0.0.0:4010` or `[::]:4010` for a wildcard. */
  address: string
  /** Whether the server listens on every interface (`0.0.0.0`, `::`). */
  wildcard: boolean
  close(): Promise<void>
}

function errorResponse(error: HttpError): SandboxResponse {
  return { status: error.status, headers: error.headers, body: error.toBody() }
}

/** The body a route answers, as bytes, with the content type it implies. */
function encode(response: SandboxResponse): { bytes: Buffer; type: string | undefined } {
  const { body } = response
  if (body === undefined) return { bytes: Buffer.alloc(0), type: undefined }
  if (Buffer.isBuffer(body)) return { bytes: body, type: 'application/octet-stream' }
  if (typeof body === 'string') return { bytes: Buffer.from(body, 'utf8'), type: 'text/plain; charset=utf-8' }
  return { bytes: Buffer.from(JSON.stringify(body), 'utf8'), type: 'application/json; charset=utf-8' }
}

function send(res: ServerResponse, response: SandboxResponse, truncate = false): void {
  if (res.destroyed || res.headersSent) return
  const { bytes, type } = encode(response)
  const headers: Record<string, string> = {}
  if (type) headers['Content-Type'] = type
  // Route headers win over the defaults, whatever their case.
  for (const [name, value] of Object.entries(response.headers ?? {})) {
    for (const existing of Object.keys(headers))
      if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing]
    headers[name] = value
  }
  headers['Content-Length'] = String(bytes.length)
  res.writeHead(response.status, headers)
  if (truncate) {
    // Half a body under a full Content-Length, then a dropped connection: what a broken proxy does.
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy())
    return
  }
  res.end(bytes)
}

/** The request body, refusing more than MAX_BODY_BYTES with 413. */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0)
  const tooLarge = () =>
    new HttpError(413, 'invalid_body', `the body must not exceed ${MAX_BODY_BYTES} bytes`, {
      field: 'body',
      headers: { Connection: 'close' },
    })
  if (declared > MAX_BODY_BYTES) throw tooLarge()
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length
      if (size > MAX_BODY_BYTES) throw tooLarge()
      chunks.push(chunk as Buffer)
    }
  } catch (error) {
    if (error instanceof HttpError) throw error
    throw new HttpError(400, 'invalid_body', 'the request body was cut off or malformed', { field: 'body' })
  }
  return Buffer.concat(chunks)
}

interface Match {
  route: Route
  params: Record<string, string>
}

function findRoute(routes: readonly Route[], method: string, path: string): Match | string[] {
  const allowed: string[] = []
  for (const route of routes) {
    const match = route.pattern.exec(path)
    if (!match) continue
    if (route.method === method) return { route, params: { ...match.groups } }
    allowed.push(route.method)
  }
  return allowed
}

/**
 * Serves `routes` over `store`: parses requests, counts operations, applies the rate limit and
 * fault rules, and turns every failure into a JSON error, so a bad request never stops the server.
 */
export async function startServer(
  store: SandboxStore,
  routes: readonly Route[],
  options: { host: string; port: number; allowedHosts?: readonly string[] },
): Promise<RunningServer> {
  const stopping = new AbortController()
  let fallbackOrigin = ''
  // Filled in once listening, from the address the system gave.
  let adminHosts: ReadonlySet<string> = new Set()

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const host = req.headers.host
    const origin = hostOfHeader(host) !== undefined ? `http://${host}` : fallbackOrigin
    const target = req.url ?? '/'
    // Appended, not resolved: `//host/path` is a path here, never another host.
    const url = new URL(
      target.startsWith('/')
        ? `${origin}${target}`
        : target.startsWith('http')
          ? target
          : `${origin}/${target}`,
    )
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET')
    const found = findRoute(routes, method, url.pathname)
    if (Array.isArray(found)) {
      const error =
        found.length > 0
          ? new HttpError(405, 'method_not_allowed', `${req.method} is not allowed on ${url.pathname}`, {
              headers: { Allow: [...new Set(found)].join(', ') },
            })
          : new HttpError(404, 'not_found', `no route for ${url.pathname}`)
      send(res, errorResponse(error))
      return
    }
    const { route, params } = found
    // The media are public images that pages embed; every other /__sandbox/ route drives the state.
    if (route.operation === 'admin') {
      const refusal = adminRefusal(method, url.pathname, req.headers, adminHosts)
      if (refusal) {
        req.resume()
        send(res, errorResponse(refusal))
        return
      }
    }
    const operation = route.operation === 'admin' ? undefined : route.operation
    if (operation) {
      store.count(operation)
      // Ends when the answer has been sent, or the connection closed before it.
      res.once('close', store.serve())
    }

    let rateHeaders: Record<string, string> = {}
    if (route.rateLimited && store.settings.rateLimit > 0) {
      const token = bearerToken({ headers: req.headers } as SandboxRequest)
      const client = (token && store.tokenClient(token)) || `address:${req.socket.remoteAddress ?? 'unknown'}`
      const decision = store.rateLimiter.hit(client)
      rateHeaders = decision.headers
      if (!decision.allowed) {
        store.countRateLimited()
        req.resume()
        const limited = new HttpError(
          429,
          'rate_limited',
          `more than ${store.settings.rateLimit} requests per second`,
        )
        send(res, { ...errorResponse(limited), headers: rateHeaders })
        return
      }
    }

    const fault = operation ? store.faults.pick(operation) : undefined
    let response: SandboxResponse
    try {
      const body = await readBody(req)
      if (fault?.latencyMs) await sleep(fault.latencyMs, undefined, { signal: stopping.signal })
      if (fault?.status !== undefined) {
        const headers: Record<string, string> = fault.status === 429 ? { 'Retry-After': '1' } : {}
        throw new HttpError(fault.status, errorCodeFor(fault.status), `fault injected for ${operation}`, {
          headers,
        })
      }
      const request: SandboxRequest = { method, path: url.pathname, url, headers: req.headers, body, origin }
      response = await route.handle(request, store, params)
    } catch (error) {
      if (stopping.signal.aborted) return
      response =
        error instanceof HttpError
          ? errorResponse(error)
          : errorResponse(
              new HttpError(
                500,
                'server_error',
                `unexpected error: ${error instanceof Error ? error.message : error}`,
              ),
            )
    }
    send(res, { ...response, headers: { ...rateHeaders, ...response.headers } }, fault?.truncate === true)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const failure = new HttpError(
        500,
        'server_error',
        `unexpected error: ${error instanceof Error ? error.message : error}`,
      )
      send(res, errorResponse(failure))
    })
  })
  server.keepAliveTimeout = 5_000
  // Requests Node cannot parse get the same JSON errors as the rest, not a bare 400.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy()
      return
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW'
    const status = tooLarge ? 431 : 400
    const failure = tooLarge
      ? new HttpError(431, 'invalid_parameter', 'the request headers are too large')
      : new HttpError(400, 'invalid_body', `malformed HTTP request (${error.code ?? 'parse error'})`)
    const body = JSON.stringify(failure.toBody())
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  // A wildcard address is not one a client can dial; loopback is, on the same machine.
  const dialable =
    address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address
  const hostPart = address.family === 'IPv6' ? `[${dialable}]` : dialable
  fallbackOrigin = `http://${hostPart}:${address.port}`
  adminHosts = allowedAdminHosts(options.host, address.address, options.allowedHosts ?? [])
  const listening = address.family === 'IPv6' ? `[${address.address}]` : address.address

  return {
    server,
    origin: fallbackOrigin,
    port: address.port,
    address: `${listening}:${address.port}`,
    wildcard: isWildcardAddress(address.address),
    close: () =>
      new Promise<void>((resolve, reject) => {
        stopping.abort()
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}
