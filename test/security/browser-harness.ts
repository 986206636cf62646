// Loads rendered pages in Chromium with a trap installed before any page script, and reports what a
// hostile payload managed: script execution, navigation, requests, injected elements and attributes.
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { closeServer, launchChromium, listen } from '../e2e/support.ts'

/** A route of the page server other than the pages: the island's bundle, the reviews endpoint. */
export type Handler = (request: Request) => Promise<Response>

/** A text some element matching `selector` must hold. */
export interface ExpectedText {
  selector: string
  text: string
}

/** What a page must show and hold, checked in the browser once it has settled. */
export interface Expectations {
  /**
   * Texts to find, compared as an HTML parser and the DevTools protocol leave them: NUL and U+FFFD
   * dropped, CR LF and CR as LF, lone surrogates as U+FFFD.
   */
  texts?: ExpectedText[]
  /** How many JSON-LD scripts the page must hold. */
  jsonLdScripts?: number
}

/**
 * A JSON-LD script of a page: the section it sits in (`head` outside any) and the digest of each of its
 * string leaves, keys included ({@link textDigest}).
 */
export interface JsonLdScript {
  section: string
  leaves: string[]
}

/** The outcome of one visit. */
export interface Visit {
  /** Everything the payload managed, empty when it managed nothing; each names its section. */
  problems: string[]
  /** Each JSON-LD script, parsed by the browser's `JSON.parse`. */
  jsonLd: JsonLdScript[]
  /** Tag names and attribute names found in the page, for an allowlist made from a benign page. */
  tags: string[]
  attributes: string[]
}

/** Tags and attributes a page may hold. */
export interface Allowlist {
  tags: ReadonlySet<string>
  attributes: ReadonlySet<string>
}

/** Hosts whose images a page may load: review photos, as the corpus's web URLs name them. */
const IMAGE_HOSTS = new Set(['example.test', 'media.example'])

const TRAP = `(() => {
  const report = (what) => { try { window.__vrTrap(String(what)) } catch {} }
  Object.defineProperty(window, '__pwned', { value: (n) => report('__pwned(' + n + ')'), writable: false, configurable: false })
  for (const name of ['alert', 'confirm', 'prompt', 'print']) {
    Object.defineProperty(window, name, { value: (m) => report(name + '(' + m + ')'), writable: false, configurable: false })
  }
  addEventListener('securitypolicyviolation', (event) => {
    report('CSP ' + event.effectiveDirective + ' blocked ' + event.blockedURI + ' ' + (event.sample || ''))
  }, true)
})()`

interface Inspected {
  problems: string[]
  jsonLd: JsonLdScript[]
  tags: string[]
  attributes: string[]
}

/** Runs in the page: every element, attribute, URL and JSON-LD script, against the allowlist. */
async function inspect(args: {
  tags: string[] | null
  attributes: string[] | null
  texts: ExpectedText[]
}): Promise<Inspected> {
  const problems: string[] = []
  // Where an element sits: the renderer's section (`data-section`) of a page holding several.
  const sectionOf = (element: Element) =>
    element.closest('[data-section]')?.getAttribute('data-section') ?? 'head'
  const problem = (element: Element, text: string) => problems.push(`${sectionOf(element)}: ${text}`)
  const comparable = (text: string) =>
    text
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
      .replace(/\r\n?/g, '\n')
      .replace(/[\0\uFFFD]/g, '')
  const seenTags = new Set<string>()
  const seenAttributes = new Set<string>()
  const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'data', 'background']
  const webUrl = (value: string) => {
    try {
      return ['http:', 'https:'].includes(new URL(value, location.href).protocol)
    } catch {
      return false
    }
  }
  for (const element of document.querySelectorAll('*')) {
    const tag = element.localName
    // The page template's own elements (`data-harness`) are not the components': no allowlist for them.
    const own = !element.hasAttribute('data-harness')
    if (own) seenTags.add(tag)
    if (own && args.tags !== null && !args.tags.includes(tag)) problem(element, `injected element <${tag}>`)
    for (const { name, value } of element.attributes) {
      if (own) seenAttributes.add(name)
      if (/^on/i.test(name)) problem(element, `event handler <${tag} ${name}>`)
      else if (own && args.attributes !== null && !args.attributes.includes(name))
        problem(element, `injected attribute <${tag} ${name}>`)
      if (URL_ATTRIBUTES.includes(name) && !webUrl(value))
        problem(element, `URL of another scheme <${tag} ${name}="${value.slice(0, 60)}">`)
      if (name === 'srcset') {
        for (const candidate of value.split(',')) {
          const url = candidate.trim().split(/\s+/)[0] ?? ''
          if (url !== '' && !webUrl(url))
            problem(element, `srcset URL of another scheme <${tag}> ${url.slice(0, 60)}`)
        }
      }
    }
    if (
      tag === 'script' &&
      element.getAttribute('type') !== 'application/ld+json' &&
      !element.hasAttribute('data-harness')
    )
      problem(element, `script element ${element.outerHTML.slice(0, 80)}`)
    if (element.shadowRoot !== null) problem(element, `shadow root on <${tag}>`)
  }
  for (const section of document.querySelectorAll('[data-section]')) {
    if (section.parentElement?.id !== 'vr-root') problem(section, 'the section is not where the page put it')
  }
  const end = document.getElementById('vr-end')
  if (end === null || end.parentElement !== document.body) problems.push('page: its end was swallowed')
  for (const { selector, text } of args.texts) {
    const wanted = comparable(JSON.parse(text) as string)
    // Only texts of about the right length are worth normalizing (a megabyte each, for some).
    const found = [...document.querySelectorAll(selector)].some((element) => {
      const shown = element.textContent ?? ''
      return Math.abs(shown.length - wanted.length) <= wanted.length / 10 + 8 && comparable(shown) === wanted
    })
    if (!found) problems.push(`page: no ${selector} shows the text`)
  }
  const digest = async (text: string) => {
    const units = new Uint16Array(text.length)
    for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i)
    const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', units))
    return [...hash].map((byte) => byte.toString(16).padStart(2, '0')).join('')
  }
  const scripts = [...document.querySelectorAll('script[type="application/ld+json"]')].map((script) => {
    const text = script.textContent ?? ''
    if (/<\/script|<!--|<script/i.test(text)) problem(script, 'a JSON-LD script holds markup unescaped')
    const leaves: string[] = []
    const walk = (value: unknown): void => {
      if (typeof value === 'string') leaves.push(value)
      else if (Array.isArray(value)) value.forEach(walk)
      else if (typeof value === 'object' && value !== null) {
        for (const [key, item] of Object.entries(value)) {
          leaves.push(key)
          walk(item)
        }
      }
    }
    try {
      walk(JSON.parse(text))
    } catch (error) {
      problem(script, `a JSON-LD script does not parse: ${String(error).slice(0, 80)}`)
    }
    return { section: sectionOf(script), leaves }
  })
  // Digests, not texts: megabytes of JSON-LD need not cross the DevTools protocol, and lone
  // surrogates, which the protocol's UTF-8 would turn into U+FFFD, count as themselves.
  const jsonLd = await Promise.all(
    scripts.map(async ({ section, leaves }) => ({ section, leaves: await Promise.all(leaves.map(digest)) })),
  )
  return { problems, jsonLd, tags: [...seenTags], attributes: [...seenAttributes] }
}

/**
 * A page server and one Chromium tab that loads its pages with the trap. The tab is reused from visit
 * to visit (a new tab costs seconds on a busy machine); each visit is a new document.
 */
export class Harness {
  readonly nonce = randomBytes(12).toString('base64url')
  private readonly pages = new Map<string, string>()
  private readonly handlers = new Map<string, Handler>()
  private origin = ''
  private sandboxOrigin = ''
  private readonly server = createServer((req, res) => {
    this.serve(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error))
    })
  })
  private browser: Browser | undefined
  private context: BrowserContext | undefined
  private tab: Page | undefined
  /** The page under visit, and what it did so far. */
  private current: { path: string; problems: string[] } = { path: '', problems: [] }

  static async start(options: { sandboxOrigin?: string } = {}): Promise<Harness> {
    const harness = new Harness()
    harness.sandboxOrigin = options.sandboxOrigin ?? ''
    harness.origin = await listen(harness.server)
    harness.browser = await launchChromium()
    await harness.openTab()
    return harness
  }

  private async openTab(): Promise<Page> {
    if (this.browser === undefined) throw new Error('the harness is not started')
    await this.context?.close()
    this.context = await this.browser.newContext()
    const tab = await this.context.newPage()
    const report = (text: string) => this.current.problems.push(text)
    await tab.exposeBinding('__vrTrap', (_source, what: string) => report(`script ran: ${what}`))
    await tab.addInitScript(TRAP)
    tab.on('dialog', (dialog) => {
      report(`dialog: ${dialog.message()}`)
      dialog.dismiss().catch(() => {})
    })
    tab.on('popup', (popup) => report(`popup: ${popup.url()}`))
    tab.on('frameattached', (frame) => report(`frame attached: ${frame.url() || 'about:blank'}`))
    tab.on('framenavigated', (frame) => {
      if (frame !== tab.mainFrame()) return
      const to = new URL(frame.url())
      // The island keeps the page's address up to date with history.replaceState: same document.
      if (to.origin !== this.origin || to.pathname !== this.current.path)
        report(`navigated to ${frame.url()}`)
    })
    await tab.route('**/*', async (route) => {
      const request = route.request()
      const url = new URL(request.url())
      const own = url.origin === this.origin
      const image = request.resourceType() === 'image' && ['http:', 'https:'].includes(url.protocol)
      if (own && (url.pathname === this.current.path || this.handlers.has(url.pathname))) {
        await route.continue()
      } else if (image && IMAGE_HOSTS.has(url.hostname)) {
        await route.fulfill({
          contentType: 'image/svg+xml',
          body: '<svg xmlns="http://www.w3.org/2000/svg"/>',
        })
      } else if (image && url.origin === this.sandboxOrigin) {
        await route.continue()
      } else if (request.isNavigationRequest()) {
        // Answered 204, so the tab stays on the page (an aborted one would go to an error page).
        report(
          `navigated to ${request.url().slice(0, 100)} (${request.frame() === tab.mainFrame() ? 'page' : 'frame'})`,
        )
        await route.fulfill({ status: 204 })
      } else {
        report(`request to ${request.url().slice(0, 100)} (${request.resourceType()})`)
        await route.abort()
      }
    })
    this.tab = tab
    return tab
  }

  /** Serves `handler` at `path` (query strings ignored when matching). */
  route(path: string, handler: Handler): void {
    this.handlers.set(path, handler)
  }

  /**
   * A complete page around `body` (and `head`), the page's own scripts (`scripts`) after the end
   * marker. The template's elements carry `data-harness`.
   */
  page(body: string, { head = '', scripts = [] }: { head?: string; scripts?: string[] } = {}): string {
    const tags = scripts
      .map((src) => `<script type="module" src="${src}" nonce="${this.nonce}" data-harness></script>`)
      .join('')
    return `<!doctype html><html lang="en" data-harness><head data-harness><meta charset="utf-8" data-harness><title data-harness>Hostile render</title>${head}</head><body data-harness><main id="vr-root" data-harness>${body}</main><footer id="vr-end" data-harness>end</footer>${tags}</body></html>`
  }

  /** A section of a page holding one renderer's output: problems found in it name it. */
  static section(name: string, html: string): string {
    return `<section data-section="${name.replace(/[^\w .()-]/g, '')}" data-harness>${html}</section>`
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin)
    const page = this.pages.get(url.pathname)
    if (page !== undefined) {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        // Report-only: a payload's script still runs (and meets the trap), and every inline script,
        // event handler, javascript: URL, style, frame, plugin, base or form it brings is reported too.
        'content-security-policy-report-only': [
          `script-src 'nonce-${this.nonce}'`,
          "script-src-attr 'none'",
          "style-src 'none'",
          "object-src 'none'",
          "frame-src 'none'",
          "base-uri 'none'",
          "form-action 'none'",
        ].join('; '),
      })
      res.end(page)
      return
    }
    const handler = this.handlers.get(url.pathname)
    if (handler === undefined) {
      res.writeHead(404).end()
      return
    }
    const response = await handler(
      new Request(url, { method: req.method, headers: req.headers as HeadersInit }),
    )
    res.writeHead(response.status, Object.fromEntries(response.headers))
    res.end(Buffer.from(await response.arrayBuffer()))
  }

  /**
   * Loads `html` at `path` with the trap, runs `act` (clicks), lets it settle, and checks it against
   * `allow` (null: collect only) and `expect`.
   */
  async visit(
    path: string,
    html: string,
    allow: Allowlist | null,
    expect: Expectations = {},
    act?: (page: Page) => Promise<void>,
  ): Promise<Visit> {
    const problems: string[] = []
    this.pages.set(path, html)
    this.current = { path, problems }
    let tab = this.tab ?? (await this.openTab())
    try {
      const response = await tab.goto(`${this.origin}${path}`, { waitUntil: 'load', timeout: 120_000 })
      if (response?.status() !== 200) problems.push(`page: answered ${response?.status()}`)
      await act?.(tab)
      let inspected: Inspected
      try {
        // Let failed images fire onerror, autofocus fire onfocus and a meta refresh navigate.
        await tab.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))),
        )
        inspected = await tab.evaluate(inspect, {
          tags: allow === null ? null : [...allow.tags],
          attributes: allow === null ? null : [...allow.attributes],
          texts: (expect.texts ?? []).map(({ selector, text }) => ({ selector, text: JSON.stringify(text) })),
        })
      } catch (error) {
        // The page went elsewhere under inspection: the navigation is reported, there is nothing to inspect.
        if (!/context was destroyed|navigat/i.test(String(error))) throw error
        problems.push(`page: left while being inspected (${String(error).slice(0, 80)})`)
        return { problems: [...problems], jsonLd: [], tags: [], attributes: [] }
      }
      problems.push(...inspected.problems)
      if (expect.jsonLdScripts !== undefined && inspected.jsonLd.length !== expect.jsonLdScripts) {
        problems.push(`page: ${inspected.jsonLd.length} JSON-LD scripts instead of ${expect.jsonLdScripts}`)
      }
      return { ...inspected, problems: [...problems] }
    } catch (error) {
      // A tab in an unknown state is not reused.
      tab = await this.openTab()
      throw error
    } finally {
      this.pages.delete(path)
      this.current = { path: '', problems: [] }
      // After a page that did something, a blank one, so that nothing it started reaches the next visit.
      if (problems.length > 0) await tab.goto('about:blank').catch(() => {})
    }
  }

  async close(): Promise<void> {
    await this.context?.close()
    await this.browser?.close()
    await closeServer(this.server)
  }
}

/** The allowlist of benign pages' visits. */
export function allowlistOf(...visits: Visit[]): Allowlist {
  return {
    tags: new Set(visits.flatMap((visit) => visit.tags)),
    attributes: new Set(visits.flatMap((visit) => visit.attributes)),
  }
}

/** The digest {@link Visit.jsonLd} holds for `text`: SHA-256 of its UTF-16 code units, in hex. */
export function textDigest(text: string): string {
  const units = new Uint16Array(text.length)
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i)
  return createHash('sha256').update(new Uint8Array(units.buffer)).digest('hex')
}

/** `text` with each lone surrogate as U+FFFD, as UTF-8 encoding leaves it. */
export function withReplacedSurrogates(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
}
