/** One link of a `Link` header (RFC 8288). */
export interface Link {
  /** The target, resolved against the base address when one was given. */
  target: string
  /** Relation types, lowercased (`rel="next prev"` gives both). */
  rels: string[]
  /** Every parameter by lowercased name; the first occurrence of a name wins. */
  params: Record<string, string>
}

const isSpace = (char: string | undefined) => char === ' ' || char === '\t'

/** Decodes an RFC 8187 extended value (`UTF-8'en'%E2%82%AC`); leaves anything else as it is. */
function decodeExtValue(value: string): string {
  const match = /^([\w!#$%&+^`{}~-]+)'[\w-]*'(.*)$/.exec(value)
  if (match === null) return value
  try {
    return decodeURIComponent(match[2] ?? '')
  } catch {
    return value
  }
}

/**
 * Parses a `Link` header into its links, in order. Tolerant of what servers send in practice:
 * any whitespace, parameters without a value, quoted values holding `,` or `;`, and `name*`
 * extended values. Links that cannot be read are skipped.
 */
export function parseLinkHeader(header: string, base?: string | URL): Link[] {
  const links: Link[] = []
  let i = 0
  const n = header.length
  while (i < n) {
    while (i < n && (isSpace(header[i]) || header[i] === ',')) i++
    if (i >= n) break
    if (header[i] !== '<') {
      // Not the start of a link: skip to the next top-level comma.
      while (i < n && header[i] !== ',') i++
      continue
    }
    const close = header.indexOf('>', i + 1)
    if (close === -1) break
    const rawTarget = header.slice(i + 1, close).trim()
    i = close + 1
    // Parameter names are the server's: without a prototype, `constructor` or `__proto__` is one like any other.
    const params: Record<string, string> = Object.create(null)
    for (;;) {
      while (i < n && isSpace(header[i])) i++
      if (header[i] !== ';') break
      i++
      while (i < n && isSpace(header[i])) i++
      let name = ''
      while (i < n && !'=;,'.includes(header[i] as string) && !isSpace(header[i])) name += header[i++]
      while (i < n && isSpace(header[i])) i++
      let value = ''
      if (header[i] === '=') {
        i++
        while (i < n && isSpace(header[i])) i++
        if (header[i] === '"') {
          i++
          while (i < n && header[i] !== '"') {
            if (header[i] === '\\' && i + 1 < n) i++
            value += header[i++]
          }
          i++
        } else {
          while (i < n && !';,'.includes(header[i] as string)) value += header[i++]
          value = value.trim()
        }
      }
      name = name.toLowerCase()
      if (name === '') continue
      const extended = name.endsWith('*')
      const key = extended ? name.slice(0, -1) : name
      if (extended) params[key] = decodeExtValue(value)
      else if (!Object.hasOwn(params, key)) params[key] = value
    }
    let target = rawTarget
    if (base !== undefined) {
      try {
        target = new URL(rawTarget, base).href
      } catch {
        continue
      }
    }
    const rels = (params.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean)
    links.push({ target, rels, params })
  }
  return links
}

/** The target of the first link with relation `rel`, or undefined. */
export function findLink(header: string | null, rel: string, base?: string | URL): string | undefined {
  if (header === null) return undefined
  const wanted = rel.toLowerCase()
  return parseLinkHeader(header, base).find((link) => link.rels.includes(wanted))?.target
}
