/**
 * The character encoding of an HTML file, found as a browser finds it (a byte order mark, else the
 * `<meta charset>` or `<meta http-equiv="content-type">` within the first 1024 bytes), so that the
 * injector only rewrites UTF-8 pages: a page in another encoding, decoded as UTF-8 and written back,
 * would have its accented letters turned into U+FFFD.
 */

/** A file decoded as UTF-8, byte for byte (a byte order mark stays, as U+FEFF). */
export interface Utf8Page {
  utf8: true
  html: string
}

/** A file the injector must not rewrite: why, and its text decoded as well as can be, to read its markers. */
export interface OtherEncodingPage {
  utf8: false
  reason: string
  text: string
}

const ONLY_UTF8 = 'only UTF-8 pages are rewritten'

/** Why the injector leaves a page that declares another encoding than UTF-8 alone. */
export function declaresEncodingReason(encoding: string): string {
  return `the page declares the ${encoding} encoding; ${ONLY_UTF8}`
}

const UTF8_BOM = [0xef, 0xbb, 0xbf]
const PRESCAN_BYTES = 1024

/** The WHATWG name of the encoding `label` stands for (`latin1` → `windows-1252`), or undefined for an unknown one. */
export function encodingOfLabel(label: string): string | undefined {
  const trimmed = label.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '').toLowerCase()
  if (trimmed === '') return undefined
  // Labels of the `replacement` encoding, which Node's decoder does not list: no text survives in it.
  if (
    ['csiso2022kr', 'hz-gb-2312', 'iso-2022-cn', 'iso-2022-cn-ext', 'iso-2022-kr', 'replacement'].includes(
      trimmed,
    )
  )
    return 'replacement'
  if (trimmed === 'x-user-defined') return 'x-user-defined'
  try {
    return new TextDecoder(trimmed).encoding
  } catch {
    return undefined
  }
}

/**
 * The encoding a `<meta>` declaration makes a browser use: UTF-16 becomes UTF-8 (a page read as ASCII
 * bytes cannot be UTF-16) and `x-user-defined` becomes `windows-1252`, as the HTML standard says.
 */
export function declaredEncoding(label: string): string | undefined {
  const encoding = encodingOfLabel(label)
  if (encoding === 'utf-16be' || encoding === 'utf-16le') return 'utf-8'
  if (encoding === 'x-user-defined') return 'windows-1252'
  return encoding
}

const WHITESPACE = /[\t\n\f\r ]/

/**
 * The encoding label of a `content` attribute of `<meta http-equiv="content-type">`
 * (`text/html; charset=windows-1252`), by the standard's "extract a character encoding from a meta
 * element".
 */
export function charsetOfContentType(content: string): string | undefined {
  const lower = content.toLowerCase()
  let position = 0
  for (;;) {
    const found = lower.indexOf('charset', position)
    if (found === -1) return undefined
    position = found + 'charset'.length
    while (WHITESPACE.test(content[position] ?? '')) position++
    if (content[position] !== '=') continue
    position++
    while (WHITESPACE.test(content[position] ?? '')) position++
    const first = content[position]
    if (first === undefined) return undefined
    if (first === '"' || first === "'") {
      const close = content.indexOf(first, position + 1)
      return close === -1 ? undefined : content.slice(position + 1, close)
    }
    let end = position
    while (end < content.length && !WHITESPACE.test(content[end] ?? '') && content[end] !== ';') end++
    return content.slice(position, end)
  }
}

const LT = 0x3c
const GT = 0x3e
const SLASH = 0x2f
const EQUALS = 0x3d
const BANG = 0x21
const QUESTION = 0x3f
const DASH = 0x2d

function isSpace(byte: number | undefined): boolean {
  return byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d || byte === 0x20
}

function isLetter(byte: number | undefined): boolean {
  return byte !== undefined && ((byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a))
}

function lower(byte: number): string {
  return String.fromCharCode(byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte)
}

function startsWithAscii(bytes: Uint8Array, at: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const byte = bytes[at + i]
    if (byte === undefined || lower(byte) !== text[i]) return false
  }
  return true
}

/** The standard's "get an attribute" over the prescanned bytes; `at.position` moves past it. */
function readAttribute(
  bytes: Uint8Array,
  at: { position: number },
): { name: string; value: string } | undefined {
  const byteAt = () => bytes[at.position]
  while (isSpace(byteAt()) || byteAt() === SLASH) at.position++
  if (byteAt() === undefined || byteAt() === GT) return undefined
  let name = ''
  let value = ''
  for (;;) {
    const byte = byteAt()
    if (byte === undefined) return undefined
    if (byte === EQUALS && name !== '') {
      at.position++
      break
    }
    if (isSpace(byte)) {
      while (isSpace(byteAt())) at.position++
      if (byteAt() !== EQUALS) return { name, value }
      at.position++
      break
    }
    if (byte === SLASH || byte === GT) return { name, value }
    name += lower(byte)
    at.position++
  }
  while (isSpace(byteAt())) at.position++
  const quote = byteAt()
  if (quote === 0x22 || quote === 0x27) {
    for (;;) {
      at.position++
      const byte = byteAt()
      if (byte === undefined) return undefined
      if (byte === quote) {
        at.position++
        return { name, value }
      }
      value += lower(byte)
    }
  }
  for (;;) {
    const byte = byteAt()
    if (byte === undefined) return undefined
    if (isSpace(byte) || byte === GT) return { name, value }
    value += lower(byte)
    at.position++
  }
}

/** What a `<meta>` start tag (its attributes read from `at`) declares, by the standard's rules. */
function metaDeclaration(bytes: Uint8Array, at: { position: number }): string | undefined {
  const seen = new Set<string>()
  let gotPragma = false
  let needPragma: boolean | undefined
  let charset: string | undefined
  for (;;) {
    const attribute = readAttribute(bytes, at)
    if (attribute === undefined) break
    if (seen.has(attribute.name)) continue
    seen.add(attribute.name)
    if (attribute.name === 'http-equiv' && attribute.value === 'content-type') gotPragma = true
    else if (attribute.name === 'content' && charset === undefined) {
      const label = charsetOfContentType(attribute.value)
      if (label !== undefined) {
        charset = label
        needPragma = true
      }
    } else if (attribute.name === 'charset') {
      charset = attribute.value
      needPragma = false
    }
  }
  if (needPragma === undefined || (needPragma && !gotPragma) || charset === undefined) return undefined
  return declaredEncoding(charset)
}

/**
 * The encoding the first 1024 bytes of an HTML file declare, by the HTML standard's "prescan a byte
 * stream to determine its encoding" (comments skipped, the first valid `<meta>` declaration wins);
 * undefined when they declare none.
 */
export function prescanEncoding(file: Uint8Array): string | undefined {
  const bytes = file.subarray(0, PRESCAN_BYTES)
  const at = { position: 0 }
  while (at.position < bytes.length) {
    const { position } = at
    if (bytes[position] !== LT) {
      at.position++
      continue
    }
    if (startsWithAscii(bytes, position, '<!--')) {
      // The first `-->`, whose dashes may be those of `<!--`.
      let end = position + 2
      while (end < bytes.length && !(bytes[end] === GT && bytes[end - 1] === DASH && bytes[end - 2] === DASH))
        end++
      at.position = end + 1
    } else if (
      startsWithAscii(bytes, position, '<meta') &&
      (isSpace(bytes[position + 5]) || bytes[position + 5] === SLASH)
    ) {
      at.position = position + 6
      const encoding = metaDeclaration(bytes, at)
      if (encoding !== undefined) return encoding
    } else if (
      isLetter(bytes[position + 1]) ||
      (bytes[position + 1] === SLASH && isLetter(bytes[position + 2]))
    ) {
      at.position = position + 1
      while (at.position < bytes.length && !isSpace(bytes[at.position]) && bytes[at.position] !== GT)
        at.position++
      while (readAttribute(bytes, at) !== undefined) {}
      at.position++
    } else if (
      bytes[position + 1] === BANG ||
      bytes[position + 1] === SLASH ||
      bytes[position + 1] === QUESTION
    ) {
      const end = bytes.indexOf(GT, position + 1)
      at.position = end === -1 ? bytes.length : end + 1
    } else {
      at.position++
    }
  }
  return undefined
}

function decodeLoosely(bytes: Uint8Array, encoding: string): string {
  try {
    return new TextDecoder(encoding).decode(bytes)
  } catch {
    return new TextDecoder('windows-1252').decode(bytes)
  }
}

/**
 * An HTML file as text when it is UTF-8 (by its byte order mark, its declaration, or, without either,
 * by being valid UTF-8), else why it is not.
 */
export function decodeHtmlFile(bytes: Uint8Array): Utf8Page | OtherEncodingPage {
  const notUtf8 = (reason: string, encoding: string): OtherEncodingPage => ({
    utf8: false,
    reason: `${reason}; ${ONLY_UTF8}`,
    text: decodeLoosely(bytes, encoding),
  })
  if (UTF8_BOM.every((byte, i) => bytes[i] === byte)) {
    // The byte order mark settles it, whatever the page declares.
    try {
      return { utf8: true, html: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) }
    } catch {
      return notUtf8('the page starts with a UTF-8 byte order mark but is not valid UTF-8', 'utf-8')
    }
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return notUtf8('the page is encoded in UTF-16BE (byte order mark)', 'utf-16be')
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return notUtf8('the page is encoded in UTF-16LE (byte order mark)', 'utf-16le')
  const declared = prescanEncoding(bytes)
  if (declared !== undefined && declared !== 'utf-8') {
    return { utf8: false, reason: declaresEncodingReason(declared), text: decodeLoosely(bytes, declared) }
  }
  try {
    return { utf8: true, html: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) }
  } catch {
    return notUtf8(
      declared === undefined
        ? 'the page is not valid UTF-8'
        : 'the page declares UTF-8 but is not valid UTF-8',
      'utf-8',
    )
  }
}
