// What the e2e tests of both demos share: child processes, local servers, a token-recording proxy in front
// of the sandbox, Chromium and axe.
import { readFile } from 'node:fs/promises'
import { createServer, request, type Server } from 'node:http'
import { createRequire } from 'node:module'
import { extname, join } from 'node:path'
import type { Result as AxeResult } from 'axe-core'
import { type Browser, chromium, type Page } from 'playwright-core'

export { run } from '../fixtures/run-command.ts'
export { apiCallsBetween, sandboxOperations } from '../fixtures/sandbox-stats.ts'

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

/** Listens on an ephemeral port of 127.0.0.1 and gives the origin. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (typeof address !== 'object' || address === null) throw new Error('no address')
  return `http://127.0.0.1:${address.port}`
}

/** Closes a server with its open connections (keep-alive ones included). */
export async function closeServer(server: Server | undefined): Promise<void> {
  if (server === undefined) return
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
}

/** A proxy in front of the sandbox that keeps every access token the token endpoints hand out. */
export interface TokenProxy {
  origin: string
  tokens: Set<string>
  close(): Promise<void>
}

export async function startTokenProxy(target: string): Promise<TokenProxy> {
  const tokens = new Set<string>()
  const upstream = new URL(target)
  const server = createServer((req, res) => {
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          const body = Buffer.concat(chunks)
          const token = /"access_token"\s*:\s*"([^"]+)"/.exec(body.toString())?.[1]
          if (token !== undefined) tokens.add(token)
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          res.end(body)
        })
      },
    )
    forward.on('error', () => res.writeHead(502).end())
    req.pipe(forward)
  })
  return { origin: await listen(server), tokens, close: () => closeServer(server) }
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
}

/** Serves a folder of static HTML as a static host does (`/a/` → `a/index.html`, 404.html otherwise). */
export function staticServer(dir: string): Server {
  return createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname)
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path)
    try {
      if (!file.startsWith(dir)) throw new Error('outside')
      const body = await readFile(file)
      res.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' })
      res.end(body)
    } catch {
      res.writeHead(404, { 'content-type': CONTENT_TYPES['.html'] })
      res.end(await readFile(join(dir, '404.html')).catch(() => ''))
    }
  })
}

/** Debian's headless Chromium, without the background services that would reach the network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}

/** The axe violations of the page a tab shows, each as its rule and the elements it names. */
export async function axeViolations(tab: Page): Promise<string[]> {
  await tab.addScriptTag({ path: AXE })
  const violations = await tab.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run(): Promise<{ violations: AxeResult[] }> } }
    return (await axe.run()).violations
  })
  return violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target).join(' ')}`)
}

/** Whether `error` is fetch's failure on a pooled keep-alive socket that the server had just closed. */
function closedSocket(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause
  return error instanceof TypeError && cause?.code === 'UND_ERR_SOCKET'
}

/**
 * `fetch`, asked once more when the first try fails on a keep-alive socket the server closed as the
 * request went out ("other side closed"): a race of the client's connection pool with the server's
 * idle timeout, not an answer of the server. Any other failure, and a second one, is thrown.
 */
export async function fetchPooled(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init)
  } catch (error) {
    if (!closedSocket(error)) throw error
    return fetch(url, init)
  }
}

/** How a page draws its first rating summary's stars: the mask image, the box, and the SVG files it got. */
export async function drawnStars(
  tab: Page,
  url: string,
): Promise<{
  star: string | undefined
  width: number
  height: number
  fontSize: number
  served: { url: string; status: number; type: string | undefined }[]
}> {
  const served: { url: string; status: number; type: string | undefined }[] = []
  tab.on('response', (response) => {
    if (new URL(response.url()).pathname.endsWith('.svg') && response.request().resourceType() !== 'document')
      served.push({
        url: response.url(),
        status: response.status(),
        type: response.headers()['content-type']?.split(';')[0],
      })
  })
  await tab.goto(url, { waitUntil: 'networkidle' })
  const drawn = await tab.locator('.vr-rating-summary__stars').evaluate((element) => {
    const box = element.getBoundingClientRect()
    const style = getComputedStyle(element)
    return { mask: style.maskImage, width: box.width, height: box.height, fontSize: style.fontSize }
  })
  return {
    star: /^url\("([^"]+)"\)$/.exec(drawn.mask)?.[1],
    width: drawn.width,
    height: drawn.height,
    fontSize: Number.parseFloat(drawn.fontSize),
    served,
  }
}
