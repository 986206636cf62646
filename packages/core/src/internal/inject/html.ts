/**
 * A small HTML scanner: just enough of the HTML tokenizer to find start tags with their attributes,
 * the content of raw-text elements (`script`, `style`, `title`…) and where the head ends, without a
 * dependency. Comments, doctypes and raw text are skipped the way a browser skips them, so a `<meta>`
 * inside a comment or a script string is not taken for a tag.
 */

/** A start tag: lowercase name, decoded attribute values (the first of duplicates wins). */
export interface StartTag {
  name: string
  attributes: Map<string, string>
  /** Offset of `<`. */
  start: number
  /** Offset just after `>`. */
  end: number
}

/** An element whose content is raw text, such as `script`. */
export interface RawTextElement {
  tag: StartTag
  /** Offsets of the content, between the start tag and the end tag. */
  contentStart: number
  contentEnd: number
}

/** What {@link scanHtml} found. */
export interface HtmlScan {
  /** Every start tag, in document order. */
  tags: StartTag[]
  /** Every raw-text element (`script`, `style`, `title`, `textarea`…), in document order. */
  rawText: RawTextElement[]
  /** Offset of the first `</head` end tag, if any. */
  headEnd: number | undefined
  /** Offset of the first `<body` start tag, if any. */
  bodyStart: number | undefined
}

/** Elements whose content the tokenizer reads as text up to their end tag. */
const RAW_TEXT_ELEMENTS = new Set([
  'script',
  'style',
  'title',
  'textarea',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
])

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
}

/**
 * Decodes character references in attribute values and titles: numeric ones and the named ones that
 * URLs and product ids use (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&nbsp;`); other names stay as
 * written.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body.startsWith('#')) {
      const code =
        body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)
      // The tokenizer turns null, surrogates and out-of-range code points into U+FFFD.
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd'
      return String.fromCodePoint(code)
    }
    return NAMED_ENTITIES[body] ?? whole
  })
}

const WHITESPACE = /[\t\n\f\r ]/

/**
 * `text` with ASCII letters lowercased, as HTML compares tag and attribute names. Unlike
 * `toLowerCase()`, it keeps every offset: `İ` lowercases to two code units.
 */
function asciiLowercase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
}

function isWhitespace(char: string | undefined): boolean {
  return char !== undefined && WHITESPACE.test(char)
}

/** Parses the attributes of a start tag from `from` (just after its name); returns them and the offset after `>`. */
function readAttributes(html: string, from: number): { attributes: Map<string, string>; end: number } {
  const attributes = new Map<string, string>()
  let i = from
  for (;;) {
    while (i < html.length && (isWhitespace(html[i]) || html[i] === '/')) i++
    if (i >= html.length) return { attributes, end: html.length }
    if (html[i] === '>') return { attributes, end: i + 1 }
    const nameStart = i
    // A name may start with `=`; it then runs to whitespace, `/`, `>` or `=`.
    i++
    while (i < html.length && !isWhitespace(html[i]) && html[i] !== '/' && html[i] !== '>' && html[i] !== '=')
      i++
    const name = asciiLowercase(html.slice(nameStart, i))
    while (i < html.length && isWhitespace(html[i])) i++
    let value = ''
    if (html[i] === '=') {
      i++
      while (i < html.length && isWhitespace(html[i])) i++
      const quote = html[i]
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1)
        const stop = close === -1 ? html.length : close
        value = html.slice(i + 1, stop)
        i = stop + 1
      } else {
        const valueStart = i
        while (i < html.length && !isWhitespace(html[i]) && html[i] !== '>') i++
        value = html.slice(valueStart, i)
      }
    }
    if (!attributes.has(name)) attributes.set(name, decodeEntities(value))
  }
}

/** Offset of the end tag `</name` (followed by whitespace, `/` or `>`) at or after `from`, case-insensitively. */
function findEndTag(html: string, lowerHtml: string, name: string, from: number): number {
  const needle = `</${name}`
  let at = lowerHtml.indexOf(needle, from)
  while (at !== -1) {
    const after = html[at + needle.length]
    if (after === undefined || after === '>' || after === '/' || isWhitespace(after)) return at
    at = lowerHtml.indexOf(needle, at + needle.length)
  }
  return -1
}

/** Scans `html` once, in document order. */
export function scanHtml(html: string): HtmlScan {
  const lowerHtml = asciiLowercase(html)
  const scan: HtmlScan = { tags: [], rawText: [], headEnd: undefined, bodyStart: undefined }
  let i = 0
  while (i < html.length) {
    const lt = html.indexOf('<', i)
    if (lt === -1) break
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4)
      i = close === -1 ? html.length : close + 3
      continue
    }
    const next = html[lt + 1] ?? ''
    if (next === '!' || next === '?') {
      const close = html.indexOf('>', lt)
      i = close === -1 ? html.length : close + 1
      continue
    }
    if (next === '/') {
      const match = /^<\/([a-zA-Z][^\t\n\f\r />]*)/.exec(html.slice(lt, lt + 64))
      if (asciiLowercase(match?.[1] ?? '') === 'head' && scan.headEnd === undefined) scan.headEnd = lt
      const close = html.indexOf('>', lt)
      i = close === -1 ? html.length : close + 1
      continue
    }
    if (!/[a-zA-Z]/.test(next)) {
      i = lt + 1
      continue
    }
    let nameEnd = lt + 1
    while (
      nameEnd < html.length &&
      !isWhitespace(html[nameEnd]) &&
      html[nameEnd] !== '/' &&
      html[nameEnd] !== '>'
    )
      nameEnd++
    const name = lowerHtml.slice(lt + 1, nameEnd)
    const { attributes, end } = readAttributes(html, nameEnd)
    const tag: StartTag = { name, attributes, start: lt, end }
    scan.tags.push(tag)
    if (name === 'body' && scan.bodyStart === undefined) scan.bodyStart = lt
    i = end
    if (RAW_TEXT_ELEMENTS.has(name)) {
      const close = findEndTag(html, lowerHtml, name, end)
      const contentEnd = close === -1 ? html.length : close
      scan.rawText.push({ tag, contentStart: end, contentEnd })
      if (close === -1) break
      const closeEnd = html.indexOf('>', close)
      i = closeEnd === -1 ? html.length : closeEnd + 1
    }
  }
  return scan
}
