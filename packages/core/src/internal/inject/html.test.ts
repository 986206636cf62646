import { describe, expect, it } from 'vitest'
import { decodeEntities, scanHtml } from './html.ts'

function attributesOf(html: string, tagName: string): Record<string, string> | undefined {
  const tag = scanHtml(html).tags.find((t) => t.name === tagName)
  return tag === undefined ? undefined : Object.fromEntries(tag.attributes)
}

describe('scanHtml', () => {
  it('reads double-quoted, single-quoted, unquoted and empty attributes', () => {
    expect(attributesOf(`<meta name="a b" content='c "d"' data-x=e/f hidden>`, 'meta')).toEqual({
      name: 'a b',
      content: 'c "d"',
      'data-x': 'e/f',
      hidden: '',
    })
  })

  it('lowercases tag and attribute names but keeps values as written', () => {
    expect(attributesOf('<META NAME="Verified-Reviews:Product" Content="SKU-A">', 'meta')).toEqual({
      name: 'Verified-Reviews:Product',
      content: 'SKU-A',
    })
  })

  it('keeps the first of two attributes with the same name, as browsers do', () => {
    expect(attributesOf('<meta content="first" content="second">', 'meta')).toEqual({ content: 'first' })
  })

  it('decodes character references in attribute values', () => {
    expect(attributesOf('<link href="/p?a=1&amp;b=2&#38;c=&#x33;">', 'link')).toEqual({
      href: '/p?a=1&b=2&c=3',
    })
  })

  it('does not take tags inside comments for tags', () => {
    const scan = scanHtml('<!-- <meta name="x"> --><p>')
    expect(scan.tags.map((t) => t.name)).toEqual(['p'])
  })

  it('does not take markup inside a script for tags, and finds where the script ends', () => {
    const html = '<head><script>var s = "<meta name=x></head>"</script></head><body>'
    const scan = scanHtml(html)
    expect(scan.tags.map((t) => t.name)).toEqual(['head', 'script', 'body'])
    const [script] = scan.rawText
    expect(html.slice(script?.contentStart, script?.contentEnd)).toBe('var s = "<meta name=x></head>"')
    expect(scan.headEnd).toBe(html.lastIndexOf('</head>'))
  })

  it('keeps offsets right after letters whose lowercase is longer, such as İ', () => {
    const html = '<title>İstanbul İİİ</title><script>{"a":"İ"}</script>'
    const [, script] = scanHtml(html).rawText
    expect(html.slice(script?.contentStart, script?.contentEnd)).toBe('{"a":"İ"}')
  })

  it('ends a script only at a closing tag followed by whitespace, a slash or >', () => {
    const html = '<script>a</scripts>b</SCRIPT >c'
    const [script] = scanHtml(html).rawText
    expect(html.slice(script?.contentStart, script?.contentEnd)).toBe('a</scripts>b')
  })

  it('finds the body start tag when the head has no end tag', () => {
    const html = '<html><head><title>x</title><body><p>'
    const scan = scanHtml(html)
    expect(scan.headEnd).toBeUndefined()
    expect(scan.bodyStart).toBe(html.indexOf('<body>'))
  })

  it('skips doctypes and processing instructions', () => {
    expect(scanHtml('<!DOCTYPE html><?xml x?><html>').tags.map((t) => t.name)).toEqual(['html'])
  })

  it('reads a text that ends inside an unclosed tag without looping', () => {
    expect(scanHtml('<p><meta name="x').tags.map((t) => t.name)).toEqual(['p', 'meta'])
  })
})

describe('decodeEntities', () => {
  it('turns references to nothing valid into the replacement character', () => {
    expect(decodeEntities('&#0;&#xD800;&#x110000;')).toBe('\ufffd\ufffd\ufffd')
  })

  it('leaves unknown named references as written', () => {
    expect(decodeEntities('&copy; &amp;')).toBe('&copy; &')
  })
})
