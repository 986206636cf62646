/** Characters that could end a script element or a JS string early, with their JSON escapes. */
const UNSAFE_IN_SCRIPT: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
}

const UNSAFE_IN_SCRIPT_PATTERN = /[<>&\u2028\u2029]/g

/**
 * JSON text of `value` that is safe as the content of a `<script type="application/ld+json">` element.
 *
 * `<`, `>`, `&`, U+2028 and U+2029 can only occur inside JSON strings, where their `\uXXXX` escapes mean
 * the same thing, so `JSON.parse` of the result gives back exactly what `JSON.parse(JSON.stringify(value))`
 * gives, while no content (`</script>`, `<!--`, entities) can end or alter the script element.
 *
 * @throws TypeError when `value` has no JSON form (`undefined`, a function, a symbol).
 */
export function serializeJsonLd(value: unknown): string {
  const json = JSON.stringify(value)
  if (json === undefined) {
    throw new TypeError(`serializeJsonLd: a ${typeof value} has no JSON form`)
  }
  return json.replace(UNSAFE_IN_SCRIPT_PATTERN, (char) => UNSAFE_IN_SCRIPT[char] ?? char)
}

/** Options of {@link jsonLdScriptTag}. */
export interface JsonLdScriptTagOptions {
  /** `id` attribute of the script element. */
  id?: string
  /** `nonce` attribute, for a Content Security Policy that allows scripts by nonce. */
  nonce?: string
}

const HTML_ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '"': '&quot;',
  "'": '&#39;',
  '<': '&lt;',
  '>': '&gt;',
}

/** `value` escaped for a double-quoted HTML attribute. */
export function escapeHtmlAttribute(value: string): string {
  return value.replace(/[&"'<>]/g, (char) => HTML_ATTRIBUTE_ESCAPES[char] ?? char)
}

/**
 * A complete `<script type="application/ld+json">` element holding {@link serializeJsonLd} of `value`,
 * with its attributes HTML-escaped. `null` and `undefined` give an empty string, so that the result of a
 * builder that had nothing to say can be passed straight in.
 */
export function jsonLdScriptTag(value: unknown, options: JsonLdScriptTagOptions = {}): string {
  if (value === null || value === undefined) return ''
  let attributes = ' type="application/ld+json"'
  if (options.id !== undefined) attributes += ` id="${escapeHtmlAttribute(options.id)}"`
  if (options.nonce !== undefined) attributes += ` nonce="${escapeHtmlAttribute(options.nonce)}"`
  return `<script${attributes}>${serializeJsonLd(value)}</script>`
}
