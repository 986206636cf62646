import { describe, expect, it } from 'vitest'
import { serializeJsonLd } from '../jsonld/serialize.ts'
import { scanHtml } from './html.ts'
import { addProductJsonLd, INJECTED_SCRIPT_ID, readProductPage } from './page.ts'

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
  return scanHtml(html)
    .rawText.filter((element) => element.tag.attributes.get('type') === 'application/ld+json')
    .map((element) => JSON.parse(html.slice(element.contentStart, element.contentEnd)))
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

  it('falls back on the og:title, then the title, for a name', () => {
    expect(readProductPage(page('<meta property="og:title" content="Teapot">')).title).toBe('Teapot')
    expect(readProductPage(page('')).title).toBe('Teapot | Shop')
  })

  it('lists the @id and name of every Product node, in arrays and graphs too', () => {
    const html = page(
      `<script type="application/ld+json">${JSON.stringify({
        '@graph': [{ '@type': 'Product', '@id': URL_A, name: 'Teapot' }, { '@type': 'WebPage' }],
      })}</script><script type="application/ld+json">[{"@type":"ProductGroup"}]</script>`,
    )
    expect(readProductPage(html).productNodes).toEqual([
      { id: URL_A, name: 'Teapot' },
      { id: undefined, name: undefined },
    ])
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

  it('leaves a page alone when the merge would give it two Product nodes', () => {
    const other = { '@type': 'Product', '@id': 'https://shop.example/products/other/' }
    const html = page(`<script type="application/ld+json">${JSON.stringify(other)}</script>`)
    expect(addProductJsonLd(html, reviewNode).status).toBe('skipped')
  })

  it('adds before the body when the head has no end tag, and skips a fragment without either', () => {
    expect(addProductJsonLd('<title>x</title><body><p>', reviewNode).html).toMatch(/<\/script><body>/)
    expect(addProductJsonLd('<p>hello</p>', reviewNode)).toMatchObject({
      status: 'skipped',
      reason: 'the page has no head element',
    })
  })

  it('gives the added script a nonce when asked', () => {
    expect(addProductJsonLd(page(''), reviewNode, { nonce: 'r4nd"m' }).html).toContain('nonce="r4nd&quot;m"')
  })
})
