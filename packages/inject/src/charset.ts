/**
 * The character encoding of an HTML file, found as a browser finds it (a byte order mark, else the
 * `<meta charset>` or `<meta http-equiv="content-type">` within the first 1024 bytes), so that the
 * injector only rewrites UTF-8 pages: a page in another encoding, decoded as UTF-8 and written back,
 * would have its accented letters turned into U+FFFD.
 */
import { type TokenHandler, Tokenizer } from 'parse5'

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

// The first `charset`, blanks, `=` and blanks, then its value: quoted, or up to a blank or `;`; an
// unclosed quote gives an empty value, which names no encoding.
const CONTENT_CHARSET =
  /charset[\t\n\f\r ]*=[\t\n\f\r ]*(?:"([^"]*)"|'([^']*)'|([^\t\n\f\r ;"'][^\t\n\f\r ;]*|))/i

/**
 * The encoding label of a `content` attribute of `<meta http-equiv="content-type">`
 * (`text/html; charset=windows-1252`), by the standard's "extract a character encoding from a meta
 * element".
 */
export function charsetOfContentType(content: string): string | undefined {
  const match = CONTENT_CHARSET.exec(content)
  return match === null ? undefined : (match[1] ?? match[2] ?? match[3])
}

/**
 * The encoding a `<meta>` element declares by its attributes (names lowercase): its `charset`, else
 * the charset of its `content` when its `http-equiv` is `content-type`; undefined for none or an
 * unknown one.
 */
export function metaEncoding(attributes: ReadonlyMap<string, string>): string | undefined {
  const content = attributes.get('content')
  const label =
    attributes.get('charset') ??
    (attributes.get('http-equiv')?.trim().toLowerCase() === 'content-type' && content !== undefined
      ? charsetOfContentType(content)
      : undefined)
  return label === undefined ? undefined : declaredEncoding(label)
}

const ignore = () => {}

/**
 * The encoding the first 1024 bytes of an HTML file declare, as the HTML standard's "prescan a byte
 * stream to determine its encoding" finds it: the bytes are read as tags alone (parse5's tokenizer
 * without a tree, so comments are skipped and the text of a `<script>` is read as tags, as the prescan
 * reads it), and the first `<meta>` that declares a known encoding wins; undefined when none does.
 */
export function prescanEncoding(file: Uint8Array): string | undefined {
  let found: string | undefined
  const handler: TokenHandler = {
    onStartTag(token) {
      if (found !== undefined || token.tagName !== 'meta') return
      found = metaEncoding(new Map(token.attrs.map((attribute) => [attribute.name, attribute.value])))
    },
    onComment: ignore,
    onDoctype: ignore,
    onEndTag: ignore,
    onEof: ignore,
    onCharacter: ignore,
    onNullCharacter: ignore,
    onWhitespaceCharacter: ignore,
  }
  // Each byte one character: what the prescan compares is ASCII.
  const text = new TextDecoder('windows-1252').decode(file.subarray(0, PRESCAN_BYTES))
  new Tokenizer({ sourceCodeLocationInfo: false }, handler).write(text, true)
  return found
}

function decodeLoosely(bytes: Uint8Array, encoding: string): string {
  try {
    return new TextDecoder(encoding).decode(bytes)
  } catch {
    return new TextDecoder('windows-1252').decode(bytes)
  }
}

/** The bytes as UTF-8 (a byte order mark kept, as U+FEFF), or undefined when they are not valid UTF-8. */
function strictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return undefined
  }
}

/** The UTF-16 encoding a file's byte order mark names, or undefined when it starts with none. */
export function utf16ByteOrder(bytes: Uint8Array): 'utf-16be' | 'utf-16le' | undefined {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be'
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le'
  return undefined
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
  // The byte order mark settles it, whatever the page declares.
  const bom = UTF8_BOM.every((byte, i) => bytes[i] === byte)
  const utf16 = utf16ByteOrder(bytes)
  if (utf16 !== undefined)
    return notUtf8(`the page is encoded in ${utf16.toUpperCase()} (byte order mark)`, utf16)
  const declared = bom ? 'utf-8' : prescanEncoding(bytes)
  if (declared !== undefined && declared !== 'utf-8') {
    return { utf8: false, reason: declaresEncodingReason(declared), text: decodeLoosely(bytes, declared) }
  }
  const html = strictUtf8(bytes)
  if (html !== undefined) return { utf8: true, html }
  if (bom) return notUtf8('the page starts with a UTF-8 byte order mark but is not valid UTF-8', 'utf-8')
  return notUtf8(
    declared === undefined ? 'the page is not valid UTF-8' : 'the page declares UTF-8 but is not valid UTF-8',
    'utf-8',
  )
}
