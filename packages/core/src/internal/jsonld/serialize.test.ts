import { describe, expect, it } from 'vitest'
import { escapeHtmlAttribute, jsonLdScriptTag, serializeJsonLd } from './serialize.ts'

const UNSAFE = /[<>&\u2028\u2029]/

describe('serializeJsonLd', () => {
  it('escapes <, >, & and the line and paragraph separators as unicode escapes', () => {
    const text = serializeJsonLd({ body: '<b>&</b>\u2028\u2029' })
    expect(text).toBe('{"body":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e\\u2028\\u2029"}')
  })

  it('parses back to the value it was given', () => {
    const value = { a: '</script><!--', b: ['&amp;', 1.5, null, true], c: { d: '\u2028' } }
    expect(JSON.parse(serializeJsonLd(value))).toEqual(value)
  })

  it('leaves no character that could close or alter the script element', () => {
    expect(serializeJsonLd({ x: '</SCRIPT ><script>&lt;\u2028\u2029' })).not.toMatch(UNSAFE)
  })

  it('throws a TypeError for a value without a JSON form', () => {
    expect(() => serializeJsonLd(undefined)).toThrow(TypeError)
  })
})

describe('jsonLdScriptTag', () => {
  it('wraps the serialized value in a script element of type application/ld+json', () => {
    expect(jsonLdScriptTag({ a: '<' })).toBe('<script type="application/ld+json">{"a":"\\u003c"}</script>')
  })

  it('escapes the id and nonce attributes', () => {
    const tag = jsonLdScriptTag({}, { id: '"><script>x', nonce: "a'b&c" })
    expect(tag).toBe(
      '<script type="application/ld+json" id="&quot;&gt;&lt;script&gt;x" nonce="a&#39;b&amp;c">{}</script>',
    )
  })

  it('gives an empty string for null, so a builder result can be passed as is', () => {
    expect(jsonLdScriptTag(null)).toBe('')
  })
})

describe('escapeHtmlAttribute', () => {
  it('escapes the five characters that matter in a quoted attribute', () => {
    expect(escapeHtmlAttribute(`&"'<>`)).toBe('&amp;&quot;&#39;&lt;&gt;')
  })
})
