const WEB_PROTOCOLS = new Set(['http:', 'https:'])

// `new URL` rather than `URL.parse`, which older edge runtimes and browsers lack.
function parse(value: string, base?: string): URL | undefined {
  try {
    return new URL(value, base)
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
  if (typeof value !== 'string' || value === '') return undefined
  const url = parse(value)
  return url !== undefined && WEB_PROTOCOLS.has(url.protocol) ? url.href : undefined
}

/**
 * An href given by the page (pagination, rate filters): absolute `http(s)` or relative to the page, or
 * `undefined` when it would resolve to any other scheme.
 */
export function pageHref(value: string | null | undefined): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined
  const url = parse(value, 'https://page.invalid/')
  return url !== undefined && WEB_PROTOCOLS.has(url.protocol) ? value : undefined
}
