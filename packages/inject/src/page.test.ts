import { jsonLdScriptTag, serializeJsonLd } from '@verified-reviews/core/jsonld'
import { describe, expect, it } from 'vitest'
import { parseHtml } from './html.ts'
import { addProductJsonLd, INJECTED_SCRIPT_ID, injectedMarkupProblem, readProductPage } from './page.ts'

const URL_A = 'https://shop.example/products/a/'

function page(head: string, body = ''): string {
  return `<!doctype html><html><head><title>Teapot | Shop</title>${head}</head><body>${body}</body></html>`
}

const reviewNode = {
  '@context': 'https://schema.org',
  '@type': 'Product',
  '@id': URL_A,
  aggregateRating: {
    '@type': 'AggregateRating',
    ratingValue: 4.5,
    reviewCount: 2,
    bestRating: 5,
    worstRating: 1,
  },
}

/** The parsed content of every JSON-LD script of a page. */
function jsonLdOf(html: string): unknown[] {
  return parseHtml(html)
    .scripts.filter((script) => script.attributes.get('type') === 'application/ld+json')
    .map((script) => JSON.parse(script.text))
}

describe('readProductPage', () => {
  it('reads the product of the meta element', () => {
    const html = page('<meta name="verified-reviews:product" content="SKU-A">')
    expect(readProductPage(html).productIds).toEqual(['SKU-A'])
  })

  it('reads the product of data attributes when the page has no meta element', () => {
    const html = page(
      '',
      '<section data-verified-reviews-product="SKU-B"><div data-verified-reviews-product="SKU-B">',
    )
    expect(readProductPage(html).productIds).toEqual(['SKU-B'])
  })

  it('prefers the meta element over data attributes', () => {
    const html = page(
      '<meta name="verified-reviews:product" content="SKU-A">',
      '<div data-verified-reviews-product="SKU-B">',
    )
    expect(readProductPage(html).productIds).toEqual(['SKU-A'])
  })

  it('lists every distinct product of a page that marks several', () => {
    const html = page(
      '',
      '<li data-verified-reviews-product="SKU-A"><li data-verified-reviews-product="SKU-B">',
    )
    expect(readProductPage(html).productIds).toEqual(['SKU-A', 'SKU-B'])
  })

  it('resolves a relative canonical link against the page URL', () => {
    const html = page('<link rel="alternate canonical" href="../b/?x=1&amp;y=2">')
    expect(readProductPage(html, URL_A).canonicalUrl).toBe('https://shop.example/products/b/?x=1&y=2')
  })

  it('decodes character references in og:title and in the title', () => {
    expect(readProductPage(page('<meta property="og:title" content="Pull &eacute;t&eacute;">')).title).toBe(
      'Pull été',
    )
    expect(readProductPage('<title>Pull &eacute;t&eacute; &amp; co</title>').title).toBe('Pull été & co')
  })

  it('does not read markers inside <template> or <noscript>', () => {
    const html = page(
      '<noscript><meta name="verified-reviews:product" content="SKU-A"></noscript>',
      '<template><div data-verified-reviews-product="SKU-B"></div></template>',
    )
    expect(readProductPage(html).productIds).toEqual([])
  })

  it('falls back on the og:title, then the title, for a name', () => {
    expect(readProductPage(page('<meta property="og:title" content="Teapot">')).title).toBe('Teapot')
    expect(readProductPage(page('')).title).toBe('Teapot | Shop')
  })

  it('lists the @id, name and type of every Product node, in arrays and graphs too', () => {
    const html = page(
      `<script type="application/ld+json">${JSON.stringify({
        '@graph': [{ '@type': 'Product', '@id': URL_A, name: 'Teapot' }, { '@type': 'WebPage' }],
      })}</script><script type="application/ld+json">[{"@type":"ProductGroup"}]</script>`,
    )
    expect(readProductPage(html).productNodes).toEqual([
      { id: URL_A, name: 'Teapot', type: 'Product' },
      { id: undefined, name: undefined, type: 'ProductGroup' },
    ])
  })

  it('reports JSON-LD that nests more than 100 levels deep, reading 100,000 levels without overflowing', () => {
    const deep = `{"@type":"Product","offers":${'['.repeat(100_000)}${']'.repeat(100_000)}}`
    const read = readProductPage(page(`<script type="application/ld+json">${deep}</script>`))
    expect(read.invalidJsonLd).toBe(true)
    expect(read.jsonLdProblem).toBe(
      'a JSON-LD script of the page nests arrays and objects more than 100 levels deep',
    )
  })

  it('reads the language of the page from its html element', () => {
    const html = '<!doctype html><html lang="fr-CA"><head><title>x</title></head><body></body></html>'
    expect(readProductPage(html).language).toBe('fr-CA')
    expect(readProductPage(page('')).language).toBeUndefined()
  })
})

describe('addProductJsonLd', () => {
  it('adds one script element at the end of the head of a page without JSON-LD', () => {
    const html = page('<meta name="verified-reviews:product" content="SKU-A">')
    const result = addProductJsonLd(html, reviewNode)
    expect(result.status).toBe('added')
    expect(result.html).toContain(
      `<script type="application/ld+json" id="${INJECTED_SCRIPT_ID}">${serializeJsonLd(reviewNode)}</script></head>`,
    )
    expect(jsonLdOf(result.html)).toEqual([reviewNode])
  })

  it("merges into the page's own Product node with the same @id, keeping its facts", () => {
    const own = {
      '@context': 'https://schema.org',
      '@type': 'Product',
      '@id': URL_A,
      name: 'Teapot',
      sku: 'A',
    }
    const result = addProductJsonLd(
      page(`<script type="application/ld+json">${JSON.stringify(own)}</script>`),
      reviewNode,
    )
    expect(result.status).toBe('merged')
    expect(jsonLdOf(result.html)).toEqual([{ ...own, aggregateRating: reviewNode.aggregateRating }])
  })

  it("merges into the page's only Product node without @id, which takes the @id", () => {
    const own = { '@context': 'https://schema.org', '@type': 'Product', name: 'Teapot' }
    const result = addProductJsonLd(
      page(`<script type="application/ld+json">${JSON.stringify(own)}</script>`),
      reviewNode,
    )
    expect(jsonLdOf(result.html)).toEqual([
      { ...own, '@id': URL_A, aggregateRating: reviewNode.aggregateRating },
    ])
  })

  it('leaves a page whose own Product node already marks up its reviews as it is', () => {
    const own = {
      '@type': 'Product',
      '@id': URL_A,
      name: 'Teapot',
      review: [{ '@type': 'Review', reviewBody: 'Shown' }],
    }
    const html = page(`<script type="application/ld+json">${JSON.stringify(own)}</script>`)
    expect(addProductJsonLd(html, reviewNode)).toEqual({ status: 'own-markup', html })
  })

  it('brings up to date the markup it merged earlier into a node of the page', () => {
    const own = { '@type': 'Product', '@id': URL_A, name: 'Teapot' }
    const stale = { ...reviewNode, aggregateRating: { ...reviewNode.aggregateRating, reviewCount: 1 } }
    const once = addProductJsonLd(
      page(`<script type="application/ld+json">${JSON.stringify(own)}</script>`),
      stale,
    )
    const again = addProductJsonLd(once.html, reviewNode)
    expect(again.status).toBe('merged')
    expect(jsonLdOf(again.html)).toEqual([{ ...own, aggregateRating: reviewNode.aggregateRating }])
    expect(again.html.match(/data-verified-reviews-jsonld/g)).toHaveLength(1)
  })

  it('brings up to date the markup it added earlier', () => {
    const stale = { ...reviewNode, aggregateRating: { ...reviewNode.aggregateRating, reviewCount: 1 } }
    const once = addProductJsonLd(page(''), stale)
    const again = addProductJsonLd(once.html, reviewNode)
    expect(again.status).toBe('merged')
    expect(jsonLdOf(again.html)).toEqual([reviewNode])
  })

  it('leaves the other scripts of the page byte for byte', () => {
    const other = '<script type="application/ld+json">\n  {"@type": "BreadcrumbList"}\n</script>'
    const result = addProductJsonLd(page(other), reviewNode)
    expect(result.html).toContain(other)
  })

  it('changes nothing the second time', () => {
    const once = addProductJsonLd(page(''), reviewNode)
    expect(addProductJsonLd(once.html, reviewNode)).toEqual({ status: 'unchanged', html: once.html })
  })

  it('keeps review text that closes the script inside the JSON', () => {
    const node = {
      ...reviewNode,
      review: [{ '@type': 'Review', reviewBody: '</script><script>alert(1)</script>' }],
    }
    const result = addProductJsonLd(page(''), node)
    expect(result.html).not.toContain('</script><script>alert(1)')
    expect(jsonLdOf(result.html)).toEqual([node])
  })

  it('leaves a page whose JSON-LD does not parse alone', () => {
    const html = page('<script type="application/ld+json">{"@type": "Product",</script>')
    expect(addProductJsonLd(html, reviewNode)).toEqual({
      status: 'skipped',
      reason: 'a JSON-LD script of the page does not parse',
      html,
    })
  })

  it('leaves alone, with the reason, a page whose Product node nests 100,000 levels deep', () => {
    const deep = `{"@type":"Product","@id":"${URL_A}","offers":${'['.repeat(100_000)}${']'.repeat(100_000)}}`
    const html = page(`<script type="application/ld+json">${deep}</script>`)
    expect(addProductJsonLd(html, reviewNode)).toEqual({
      status: 'skipped',
      reason: 'a JSON-LD script of the page nests arrays and objects more than 100 levels deep',
      html,
    })
  })

  it('merges into a Product node that nests as deep as 100 levels', () => {
    // The node is level 1; its offers hold 99 levels of arrays.
    const nested = `${'['.repeat(99)}${']'.repeat(99)}`
    const html = page(
      `<script type="application/ld+json">{"@type":"Product","@id":"${URL_A}","offers":${nested}}</script>`,
    )
    const result = addProductJsonLd(html, reviewNode)
    expect(result.status).toBe('merged')
    expect(jsonLdOf(result.html)).toEqual([
      expect.objectContaining({ offers: JSON.parse(nested), aggregateRating: reviewNode.aggregateRating }),
    ])
  })

  it('leaves a page alone when the merge would give it two Product nodes', () => {
    const other = { '@type': 'Product', '@id': 'https://shop.example/products/other/' }
    const html = page(`<script type="application/ld+json">${JSON.stringify(other)}</script>`)
    expect(addProductJsonLd(html, reviewNode).status).toBe('skipped')
  })

  it('adds after the last element of a head without end tag', () => {
    expect(addProductJsonLd('<title>x</title><body><p>', reviewNode).html).toMatch(
      /<\/title><script[^>]*>[^<]*<\/script><body>/,
    )
  })

  it('adds where the parser puts the head in a page without html or head tags', () => {
    const result = addProductJsonLd('<p>hello</p>', reviewNode)
    expect(result.status).toBe('added')
    expect(result.html).toMatch(/^<script[^>]*>[^<]*<\/script><p>hello<\/p>$/)
  })

  it('skips a page that ends inside its head, where no script can be added', () => {
    expect(addProductJsonLd('<head><title>Teapot', reviewNode)).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('no place at the end of its head'),
    })
  })

  it("adds to the head, not inside the page's script, after an empty comment <!--> or <!--->", () => {
    for (const comment of ['<!-->', '<!--->']) {
      const html = page(`${comment}<script>var a = 1</script>`, '<script>b()</script> -->')
      const result = addProductJsonLd(html, reviewNode)
      const parsed = parseHtml(result.html)
      expect(parsed.scripts.map((script) => [script.text, script.inHead])).toEqual([
        ['var a = 1', true],
        [serializeJsonLd(reviewNode), true],
        ['b()', false],
      ])
    }
  })

  it('adds to the head, not inside a page script that holds <!--<script>', () => {
    const own = 'var s = "<!--<script>"; </script></head><body>"; </script>'
    const result = addProductJsonLd(page(`<script>${own}`), reviewNode)
    expect(parseHtml(result.html).scripts.map((script) => [script.text, script.inHead])).toEqual([
      [own.slice(0, -'</script>'.length), true],
      [serializeJsonLd(reviewNode), true],
    ])
  })

  it('does not merge into JSON-LD inside <template>, <noscript> or SVG, and leaves it as it was', () => {
    const product = `<script type="application/ld+json">${JSON.stringify({ '@type': 'Product', name: 'Other' })}</script>`
    const body = `<template>${product}</template><noscript>${product}</noscript><svg>${product}</svg>`
    const result = addProductJsonLd(page('', body), reviewNode)
    expect(result.status).toBe('added')
    expect(result.html).toContain(body)
    expect(jsonLdOf(result.html)).toEqual([reviewNode])
  })

  it('skips a page that declares another encoding than UTF-8', () => {
    expect(addProductJsonLd(page('<meta charset="iso-8859-1">'), reviewNode)).toMatchObject({
      status: 'skipped',
      reason: 'the page declares the windows-1252 encoding; only UTF-8 pages are rewritten',
    })
  })

  it('gives the added script a nonce when asked', () => {
    expect(addProductJsonLd(page(''), reviewNode, { nonce: 'r4nd"m' }).html).toContain('nonce="r4nd&quot;m"')
  })
})

describe('a page that nests its elements deep', () => {
  for (const depth of [5_000, 50_000]) {
    const deepBody = `${'<div>'.repeat(depth)}<span data-verified-reviews-product="SKU-1">x</span>${'</div>'.repeat(depth)}`

    it(`reads the marker of the innermost of ${depth.toLocaleString('en')} nested elements`, () => {
      expect(readProductPage(page('', deepBody)).productIds).toEqual(['SKU-1'])
    })

    it(`adds its markup to a page of ${depth.toLocaleString('en')} nested elements, and checks it`, () => {
      const result = addProductJsonLd(page('', deepBody), reviewNode)
      expect(result.status).toBe('added')
      expect(injectedMarkupProblem(result.html, true)).toBeUndefined()
      expect(jsonLdOf(result.html)).toEqual([reviewNode])
    })
  }
})

describe('injectedMarkupProblem', () => {
  it('finds nothing wrong with a page the injector added its script to', () => {
    expect(injectedMarkupProblem(addProductJsonLd(page(''), reviewNode).html, true)).toBeUndefined()
  })

  it('finds two scripts of the injector', () => {
    const { html } = addProductJsonLd(page(''), reviewNode)
    const twice = html.replace(
      '</head>',
      `${jsonLdScriptTag({ '@type': 'Thing' }, { id: INJECTED_SCRIPT_ID })}</head>`,
    )
    expect(injectedMarkupProblem(twice, true)).toBe('the page holds 2 scripts of the injector, not 1')
  })

  it('finds an added script outside the head', () => {
    const html = page('', jsonLdScriptTag(reviewNode, { id: INJECTED_SCRIPT_ID }))
    expect(injectedMarkupProblem(html, true)).toBe('the script of the injector is not in the head')
    expect(injectedMarkupProblem(html, false)).toBeUndefined()
  })

  it('finds a page left with two Product nodes', () => {
    const other = `<script type="application/ld+json">${JSON.stringify({ '@type': 'Product', name: 'Other' })}</script>`
    const html = page(jsonLdScriptTag(reviewNode, { id: INJECTED_SCRIPT_ID }), other)
    expect(injectedMarkupProblem(html, true)).toBe('the page holds 2 Product nodes, not 1')
  })
})
