const WEB_PROTOCOLS = new Set(['http:', 'https:'])

/** `value` parsed against `base`, when it is an `http(s)` URL. */
function parseWeb(value: string | null | undefined, base?: string): URL | undefined {
  if (typeof value !== 'string' || value === '') return undefined
  try {
    // `new URL` rather than `URL.parse`, which older edge runtimes and browsers lack.
    const url = new URL(value, base)
    return WEB_PROTOCOLS.has(url.protocol) ? url : undefined
  } catch {
    return undefined
  }
}

/**
 * An absolute `http(s)` URL from API data, or `undefined`. Parsed with the WHATWG URL parser, the one
 * browsers use, so tabs, newlines and control characters cannot disguise a `javascript:` or `data:` URL
 * as a web address.
 */
export function webUrl(value: string | null | undefined): string | undefined {
  return parseWeb(value)?.href
}

/**
 * An href given by the page (pagination, rate filters): absolute `http(s)` or relative to the page, or
 * `undefined` when it would resolve to any other scheme.
 */
export function pageHref(value: string | null | undefined): string | undefined {
  return parseWeb(value, 'https://page.invalid/') === undefined ? undefined : (value as string)
}

/**
 * How a site writes its page URLs, as Astro's `trailingSlash` says: `'always'` ends every path with
 * `/`, `'never'` ends none with it (but the root), `'ignore'` ends a folder's index page with it and no
 * other page, as a static host serves the files (`shoes/index.html` → `/shoes/`, `about.html` → `/about`).
 */
export type TrailingSlash = 'always' | 'never' | 'ignore'

/**
 * The URL of a page under `site`, the `@id` of its Product node: the one rule of the JSON-LD injector
 * and of the Astro components, so that both give a page the same URL.
 *
 * @param path The page's path below `site`, percent-encoded, with or without a trailing `/`.
 * @param index Whether the page is a folder's index page (`shoes/index.html`).
 * @example
 * pageUrl('shoes', 'https://shop.example/', { index: true, trailingSlash: 'never' }) // 'https://shop.example/shoes'
 */
export function pageUrl(
  path: string,
  site: string,
  { index, trailingSlash = 'ignore' }: { index: boolean; trailingSlash?: TrailingSlash | undefined },
): string {
  const trimmed = path.replace(/^\/+|\/+$/g, '')
  const slash = trailingSlash === 'always' || (trailingSlash === 'ignore' && index)
  const base = site.endsWith('/') ? site : `${site}/`
  return new URL(trimmed === '' || !slash ? trimmed : `${trimmed}/`, base).href
}
