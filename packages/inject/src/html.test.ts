import { describe, expect, it } from 'vitest'
import { attributesOf, documentTitle, headEndCandidates, parseHtml, serializeDocument } from './html.ts'

/** A page whose body nests `depth` elements, the innermost holding `text`. */
function nested(depth: number, text = 'x'): string {
  return `<html><head><title>t</title></head><body>${'<div>'.repeat(depth)}${text}${'</div>'.repeat(depth)}</body></html>`
}

function scriptTexts(html: string): string[] {
  return parseHtml(html).scripts.map((script) => script.text)
}

/** `html` with `marker` written at the first head-end candidate. */
function insertAtHeadEnd(html: string, marker = '<meta name="x">'): string {
  const [at] = headEndCandidates(parseHtml(html))
  return at === undefined ? html : html.slice(0, at) + marker + html.slice(at)
}

describe('parseHtml', () => {
  it("gives each script's text and the offsets of that text in the page", () => {
    const html = '<head><script type="application/ld+json">{"a":1}</script></head>'
    const [script] = parseHtml(html).scripts
    expect(script?.text).toBe('{"a":1}')
    expect(html.slice(script?.location?.contentStart, script?.location?.contentEnd)).toBe('{"a":1}')
    expect(html.slice(script?.location?.start, script?.location?.contentStart)).toBe(
      '<script type="application/ld+json">',
    )
  })

  it('keeps offsets into the page as given after CRLF line ends, astral characters and a byte order mark', () => {
    const html = '\ufeff<head>\r\n<title>😀\r\n</title><script>a\r\nb</script></head>'
    const [script] = parseHtml(html).scripts
    expect(html.slice(script?.location?.contentStart, script?.location?.contentEnd)).toBe('a\r\nb')
  })

  it('reads a script that holds <!--<script> on to its second </script>, as a browser does', () => {
    const html = '<head><script>var a = "<!--<script>"; </script><meta name=x></head>"; b()</script></head>'
    expect(scriptTexts(html)).toEqual(['var a = "<!--<script>"; </script><meta name=x></head>"; b()'])
  })

  it('takes <!--> and <!---> for empty comments, so a script after them is a script', () => {
    expect(scriptTexts('<head><!--><script>a()</script><!---><script>b()</script></head>')).toEqual([
      'a()',
      'b()',
    ])
  })

  it('leaves out the scripts of <template>, of SVG and of <noscript>', () => {
    const html =
      '<head><noscript><script type="application/ld+json">{}</script></noscript></head><body>' +
      '<template><script type="application/ld+json">{}</script></template>' +
      '<svg><script type="application/ld+json">{}</script></svg><script>real()</script>'
    expect(scriptTexts(html)).toEqual(['real()'])
  })

  it('says which scripts are children of the head', () => {
    const html = '<head><script>a()</script></head><body><script>b()</script>'
    expect(parseHtml(html).scripts.map((script) => script.inHead)).toEqual([true, false])
  })

  it('finds the same scripts without offsets when asked not to keep them', () => {
    const [script] = parseHtml('<head><script>a()</script></head>', { offsets: false }).scripts
    expect(script).toMatchObject({ text: 'a()', inHead: true, location: undefined })
  })

  it('gives no end for a script the page ends inside', () => {
    const [script] = parseHtml('<head><script>a()</script').scripts
    expect(script?.location).toMatchObject({ contentEnd: undefined })
  })

  it('does not take markup inside a comment or a script string for elements', () => {
    const html = '<!-- <meta name="a"> --><script>var s = "<meta name=b>"</script><p>'
    expect(parseHtml(html).elements.map((element) => element.tagName)).toEqual([
      'html',
      'head',
      'script',
      'body',
      'p',
    ])
  })

  it('reads a start tag whose quoted attribute holds >', () => {
    const [, , meta] = parseHtml('<meta content="a > b" name=x>').elements
    expect(meta === undefined ? undefined : Object.fromEntries(attributesOf(meta))).toEqual({
      content: 'a > b',
      name: 'x',
    })
  })
})

describe('attributesOf', () => {
  it('lowercases names, decodes character references and keeps the first of duplicates', () => {
    const [, , link] = parseHtml('<LINK HREF="/p?a=1&amp;b=2&#38;c=&#x33;&eacute;" href="second">').elements
    expect(link === undefined ? undefined : Object.fromEntries(attributesOf(link))).toEqual({
      href: '/p?a=1&b=2&c=3é',
    })
  })
})

describe('documentTitle', () => {
  it('decodes character references, named ones included, and collapses whitespace', () => {
    expect(documentTitle(parseHtml('<title>  Pull &eacute;t&eacute;\n &amp; co </title>'))).toBe(
      'Pull été & co',
    )
  })

  it('takes the first HTML title, not that of an SVG drawing', () => {
    expect(documentTitle(parseHtml('<body><svg><title>Icon</title></svg><title>Page</title>'))).toBe('Page')
  })
})

describe('a page that nests its elements deep', () => {
  for (const depth of [5_000, 50_000]) {
    it(`is read without overflowing the call stack at ${depth.toLocaleString('en')} nested elements`, () => {
      const parsed = parseHtml(nested(depth))
      // html, head, title, body, and the divs.
      expect(parsed.elements).toHaveLength(depth + 4)
      expect(headEndCandidates(parsed)).toEqual([nested(depth).indexOf('</head>')])
    })

    it(`serializes alike two pages that parse alike, and apart two that differ, at ${depth.toLocaleString('en')} nested elements`, () => {
      const once = serializeDocument(parseHtml(nested(depth)).document)
      expect(serializeDocument(parseHtml(nested(depth), { offsets: false }).document)).toBe(once)
      expect(serializeDocument(parseHtml(nested(depth, 'y')).document)).not.toBe(once)
    })
  }
})

describe('serializeDocument', () => {
  it('tells apart pages that differ only in an attribute, a comment, the doctype or a template', () => {
    const pages = [
      '<!doctype html><p class="a">x',
      '<!doctype html><p class="b">x',
      '<!doctype html><p class="a">x<!-- c -->',
      '<p class="a">x',
      '<!doctype html><p class="a">x<template><i>1</i></template>',
      '<!doctype html><p class="a">x<template><i>2</i></template>',
    ]
    const serialized = pages.map((html) => serializeDocument(parseHtml(html).document))
    expect(new Set(serialized).size).toBe(pages.length)
  })
})

describe('headEndCandidates', () => {
  it('is the head end tag when there is one', () => {
    expect(insertAtHeadEnd('<html><head><title>x</title></head><body>')).toBe(
      '<html><head><title>x</title><meta name="x"></head><body>',
    )
  })

  it('is the head end tag the parser took, not a </head> inside a script', () => {
    const html = '<head><script>"<!--<script>"</head></script>"</script></head><body>'
    expect(insertAtHeadEnd(html)).toBe(
      '<head><script>"<!--<script>"</head></script>"</script><meta name="x"></head><body>',
    )
  })

  it("is after the head's last child when the head has no end tag", () => {
    expect(insertAtHeadEnd('<title>x</title>\n<body><p>')).toBe('<title>x</title>\n<meta name="x"><body><p>')
  })

  it('is after <html> when the head is implied and empty', () => {
    expect(insertAtHeadEnd('<html lang="fr"><p>x')).toBe('<html lang="fr"><meta name="x"><p>x')
  })

  it('is before the first content when the page has neither html nor head', () => {
    expect(insertAtHeadEnd('<!doctype html><p>x')).toBe('<!doctype html><meta name="x"><p>x')
  })

  it('counts the byte order mark in its offsets', () => {
    expect(insertAtHeadEnd('\ufeff<head></head>')).toBe('\ufeff<head><meta name="x"></head>')
  })
})
