/**
 * The HTML injector against a corpus of tricky pages (issue 9, finding 4). Every page goes through
 * `injectProductJsonLd` (bytes on disk, as the command and the Astro integration read them) and is
 * then read back with parse5, independently of the injector's own reading. Each page is either
 * injected correctly or skipped with a reason:
 *
 * - injected: exactly one Product node in the page's JSON-LD, in a script that is a child of the head;
 *   the page's own scripts (in the document, in `<template>`, in SVG) have the same text as before and
 *   still compile; every byte outside the edited range is the same (an added script is a pure
 *   insertion; a merge only rewrites the page's own Product script);
 * - skipped: the file is byte for byte as it was, and the report says why.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Script } from 'node:vm'
import type { CatalogRating, ReviewsCatalog } from '@verified-reviews/core/prefetch'
import { type InjectReport, injectProductJsonLd, pageUrlOf } from '@verified-reviews/inject'
import { type DefaultTreeAdapterTypes, parse } from 'parse5'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

type Node = DefaultTreeAdapterTypes.Node
type Element = DefaultTreeAdapterTypes.Element

const SITE = 'https://shop.example/'
const HTML_NS = 'http://www.w3.org/1999/xhtml'
const META = '<meta name="verified-reviews:product" content="SKU-1">'
const RATING: CatalogRating = {
  average: 4.5,
  count_total: 2,
  count_5: 1,
  count_4: 1,
  count_3: 0,
  count_2: 0,
  count_1: 0,
}

type Expectation =
  | { injected: 'added' | 'merged'; name?: string }
  | { skipped: RegExp }
  /** Not a page of the product (its marker is not part of the document): left alone, unreported. */
  | { untouched: true }

interface CorpusPage {
  /** File name, without `.html`. */
  name: string
  page: string | Uint8Array
  expect: Expectation
}

const latin1 = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0))
const utf16le = (text: string) => Uint8Array.from([0xff, 0xfe, ...Buffer.from(text, 'utf16le')])

const CORPUS: CorpusPage[] = [
  {
    name: 'comments-in-head-and-body',
    page:
      '<!doctype html><html><head><!-- <script type="application/ld+json">{"@type":"Product"}</script> </head> -->' +
      `${META}<title>Teapot</title><!-- --></head><body><!-- <head> </head> --><p>x</p><!-- end --></body></html>`,
    expect: { injected: 'added', name: 'Teapot' },
  },
  {
    name: 'empty-comment-before-a-script',
    page: `<!doctype html><html><head>${META}<!--><script>var s = "--></head>";</script><title>Teapot</title></head><body></body></html>`,
    expect: { injected: 'added' },
  },
  {
    name: 'empty-comment-with-three-dashes-before-a-script',
    page: `<!doctype html><html><head>${META}<!---><script>var s = "--></head>";</script><title>Teapot</title></head><body></body></html>`,
    expect: { injected: 'added' },
  },
  {
    name: 'comment-and-script-opener-inside-a-script',
    page:
      `<!doctype html><html><head>${META}<script>var a = "<!--<script>"; var b = "</script></head><body>"; var c = 1;</script>` +
      '<title>Teapot</title></head><body></body></html>',
    expect: { injected: 'added' },
  },
  {
    name: 'json-ld-in-a-template',
    page:
      `<!doctype html><html><head>${META}<title>Teapot</title><template><script type="application/ld+json">` +
      '{"@context":"https://schema.org","@type":"Product","name":"Template"}</script></template></head><body></body></html>',
    expect: { injected: 'added', name: 'Teapot' },
  },
  {
    name: 'head-end-tag-inside-a-template',
    page: `<!doctype html><html><head>${META}<template><p></head></template><title>Teapot</title></head><body></body></html>`,
    expect: { injected: 'added' },
  },
  {
    name: 'nested-svg-with-scripts',
    page:
      `<!doctype html><html><head>${META}<title>Teapot</title></head><body><svg viewBox="0 0 1 1">` +
      '<script type="application/ld+json">{"@type":"Product","name":"Icon"}</script><foreignObject><svg>' +
      '<script>var inner = 1;</script></svg></foreignObject></svg></body></html>',
    expect: { injected: 'added', name: 'Teapot' },
  },
  {
    name: 'json-ld-in-noscript',
    page:
      `<!doctype html><html><head>${META}<title>Teapot</title><noscript><script type="application/ld+json">` +
      '{"@type":"Product","name":"No script"}</script></noscript></head><body></body></html>',
    expect: { injected: 'added', name: 'Teapot' },
  },
  {
    name: 'windows-1252-with-meta-charset',
    page: latin1(
      `<!doctype html><html><head><meta charset="windows-1252">${META}<title>Pull \xe9t\xe9</title></head><body>\xe9</body></html>`,
    ),
    expect: { skipped: /declares the windows-1252 encoding/ },
  },
  {
    name: 'latin-1-with-http-equiv',
    page: latin1(
      `<!doctype html><html><head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">${META}` +
        '<title>Caf\xe9</title></head><body></body></html>',
    ),
    expect: { skipped: /declares the windows-1252 encoding/ },
  },
  {
    name: 'utf-16-with-byte-order-mark',
    page: utf16le(`<!doctype html><html><head>${META}<title>Teapot</title></head><body></body></html>`),
    expect: { skipped: /UTF-16LE/ },
  },
  {
    name: 'invalid-utf-8-without-declaration',
    page: latin1(`<!doctype html><html><head>${META}<title>Caf\xe9</title></head><body></body></html>`),
    expect: { skipped: /not valid UTF-8/ },
  },
  {
    name: 'no-head-tags',
    page: `<!doctype html><html lang="fr"><title>Teapot</title>${META}<body><p>x</p></body></html>`,
    expect: { injected: 'added', name: 'Teapot' },
  },
  {
    name: 'no-head-and-nothing-in-it',
    page: '<!doctype html><html><body data-verified-reviews-product="SKU-1"><p>x</p></body></html>',
    expect: { injected: 'added' },
  },
  {
    name: 'no-html-tags',
    page: `<!doctype html><meta charset="utf-8"><title>Teapot</title>${META}<p>x</p>`,
    expect: { injected: 'added', name: 'Teapot' },
  },
  {
    name: 'a-fragment',
    page: '<p data-verified-reviews-product="SKU-1">Teapot</p>',
    expect: { injected: 'added' },
  },
  {
    name: 'byte-order-mark',
    page: `\ufeff<!doctype html><html><head>${META}<title>Thé</title></head><body></body></html>`,
    expect: { injected: 'added', name: 'Thé' },
  },
  {
    name: 'uppercase-tags',
    page:
      '<!DOCTYPE HTML><HTML><HEAD><META NAME="verified-reviews:product" CONTENT="SKU-1"><TITLE>Teapot</TITLE>' +
      '<SCRIPT>var up = 1;</SCRIPT></HEAD><BODY></BODY></HTML>',
    expect: { injected: 'added', name: 'Teapot' },
  },
  {
    name: 'greater-than-in-quoted-attributes',
    page:
      `<!doctype html><html><head>${META}<meta name="description" content="a > b </head> <script>">` +
      `<link rel='alternate' title='</head>' href='/x'><title>Teapot</title></head><body title="</body>"></body></html>`,
    expect: { injected: 'added', name: 'Teapot' },
  },
  {
    name: 'cdata',
    page:
      `<!doctype html><html><head>${META}<title>Teapot</title></head><body><svg><![CDATA[ </head><script>var x = 1;</script> ]]>` +
      '<script><![CDATA[ var y = 1 < 2; ]]></script></svg><![CDATA[ bogus > ]]></body></html>',
    expect: { injected: 'added', name: 'Teapot' },
  },
  {
    name: 'script-end-tag-variants',
    page:
      `<!doctype html><html><head>${META}<script>var a = "</scripts>"; var b = "<\\/script>";</SCRIPT\t>` +
      '<script>var c = 2;</script/><style>/* </head> */ p{}</style><title>Teapot</title></head><body></body></html>',
    expect: { injected: 'added', name: 'Teapot' },
  },
  {
    name: 'entity-encoded-title',
    page: `<!doctype html><html><head>${META}<title>Pull &eacute;t&eacute; &amp; co</title></head><body></body></html>`,
    expect: { injected: 'added', name: 'Pull été & co' },
  },
  {
    name: 'entity-encoded-og-title',
    page:
      `<!doctype html><html><head>${META}<meta property="og:title" content="Pull &eacute;t&eacute;">` +
      '<title>Shop</title></head><body></body></html>',
    expect: { injected: 'added', name: 'Pull été' },
  },
  {
    name: 'own-product-node-and-crlf',
    page:
      `<!doctype html>\r\n<html>\r\n<head>\r\n${META}\r\n<title>Shop</title>\r\n<script type="application/ld+json">\r\n` +
      '{"@context":"https://schema.org","@type":"Product","name":"Teapot","sku":"SKU-1"}\r\n</script>\r\n' +
      '<script>var after = 1;</script>\r\n</head>\r\n<body></body></html>\r\n',
    expect: { injected: 'merged', name: 'Teapot' },
  },
  {
    name: 'page-ending-inside-its-title',
    page: `<!doctype html><html><head>${META}<title>Teapot`,
    expect: { skipped: /no place at the end of its head/ },
  },
  {
    name: 'end-tags-inside-title-textarea-and-plaintext',
    page:
      `<!doctype html><html><head>${META}<title>a </head> b</title></head><body><textarea></head></textarea>` +
      '<plaintext></head></body>',
    expect: { injected: 'added', name: 'a </head> b' },
  },
  {
    name: 'second-head',
    page: `<!doctype html><html><head>${META}<title>Teapot</title></head><head><script>var h2 = 1;</script></head><body></body></html>`,
    expect: { injected: 'added' },
  },
  {
    name: 'script-in-a-table',
    page: `<!doctype html><html><head>${META}<title>Teapot</title></head><body><table><script>var t = 1;</script><tr><td>x</td></tr></table></body></html>`,
    expect: { injected: 'added' },
  },
  {
    name: 'separators-and-nul-in-a-script',
    page: `<!doctype html><html><head>${META}<script>var s = "\u2028\u2029"; /* \u0000 */</script><title>Teapot</title></head><body></body></html>`,
    expect: { injected: 'added' },
  },
  {
    name: 'marker-inside-a-template',
    page:
      '<!doctype html><html><head><template><meta name="verified-reviews:product" content="SKU-1"></template>' +
      '<title>Teapot</title></head><body></body></html>',
    expect: { untouched: true },
  },
  {
    name: 'marker-inside-noscript',
    page:
      '<!doctype html><html><head><noscript><meta name="verified-reviews:product" content="SKU-1"></noscript>' +
      '<title>Teapot</title></head><body></body></html>',
    expect: { untouched: true },
  },
]

interface FoundScript {
  element: Element
  text: string
  html: boolean
  inTemplate: boolean
  inHead: boolean
}

function isElement(node: Node): node is Element {
  return 'tagName' in node
}

function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name)?.value
}

/** The page as a browser reads it: the byte order mark is the decoder's, not the parser's. */
function parsePage(text: string): DefaultTreeAdapterTypes.Document {
  return parse(text.replace(/^\ufeff/, ''), { sourceCodeLocationInfo: true })
}

/** Every script of the page, HTML and SVG, the content of templates included, in tree order. */
function scriptsOf(document: DefaultTreeAdapterTypes.Document): FoundScript[] {
  const found: FoundScript[] = []
  const walk = (node: Node, inTemplate: boolean, inHead: boolean) => {
    const children = 'childNodes' in node ? node.childNodes : []
    for (const child of children) {
      if (!isElement(child)) continue
      if (child.tagName === 'script') {
        const text = child.childNodes.map((text) => ('value' in text ? text.value : '')).join('')
        found.push({ element: child, text, html: child.namespaceURI === HTML_NS, inTemplate, inHead })
      }
      walk(child, inTemplate, child.tagName === 'head' && child.namespaceURI === HTML_NS)
      if ('content' in child) walk(child.content, true, false)
    }
  }
  walk(document, false, false)
  return found
}

function isInjectorScript(script: FoundScript): boolean {
  return (
    attribute(script.element, 'id') === 'verified-reviews-jsonld' ||
    attribute(script.element, 'data-verified-reviews-jsonld') !== undefined
  )
}

function isJsonLd(script: FoundScript): boolean {
  return attribute(script.element, 'type')?.trim().toLowerCase() === 'application/ld+json'
}

/** Product nodes of the page's real JSON-LD (HTML scripts of the document), with whether their script is in the head. */
function productNodes(scripts: FoundScript[]): { node: Record<string, unknown>; inHead: boolean }[] {
  return scripts
    .filter((script) => script.html && !script.inTemplate && isJsonLd(script))
    .flatMap((script) => {
      const document: unknown = JSON.parse(script.text)
      const nodes = Array.isArray(document) ? document : [document]
      return nodes
        .filter(
          (node): node is Record<string, unknown> =>
            typeof node === 'object' && node?.['@type'] === 'Product',
        )
        .map((node) => ({ node, inHead: script.inHead }))
    })
}

/** Whether the script's text still means what it meant: JSON-LD parses, JavaScript compiles. */
function stillParses(script: FoundScript): void {
  if (isJsonLd(script)) JSON.parse(script.text)
  else new Script(script.text)
}

/** Length of the common start and of the common end of two byte strings (not overlapping). */
function commonEnds(before: Buffer, after: Buffer): { prefix: number; suffix: number } {
  let prefix = 0
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++
  let suffix = 0
  while (
    suffix < before.length - prefix &&
    suffix < after.length - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  )
    suffix++
  return { prefix, suffix }
}

let dir: string
let report: InjectReport
const before = new Map<string, Buffer>()

const catalog: ReviewsCatalog = {
  reviews: async () => [],
  syncReport: async () => undefined,
  ratings: async (ids) => new Map(ids.map((id) => [id, RATING])),
  // The injector reads each product's rating from its summary.
  summaries: async (ids = []) =>
    new Map(
      ids.map((id) => [id, { product_variation_id: id, website_id: 'w', extras: [], ratings: RATING }]),
    ),
  report: async () => {
    throw new Error('the injector asks for no reviews with maxReviews 0')
  },
  calls: () => ({ reviews: 0, products: 0 }),
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vr-injector-corpus-'))
  for (const { name, page } of CORPUS) {
    const bytes = Buffer.from(typeof page === 'string' ? Buffer.from(page, 'utf8') : page)
    before.set(name, bytes)
    await writeFile(join(dir, `${name}.html`), bytes)
  }
  report = await injectProductJsonLd({ dir, site: SITE, catalog, maxReviews: 0, logger: { warn() {} } })
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('the injector against a corpus of tricky pages', () => {
  it('holds at least the cases the issue lists', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(30)
    expect(report.pages).toBe(CORPUS.length)
  })

  it('reports no page that failed its check after writing', () => {
    expect(report.failedPages ?? []).toEqual([])
  })

  for (const { name, expect: expected } of CORPUS) {
    const file = `${name}.html`

    if ('skipped' in expected) {
      it(`skips ${name} with its reason and leaves its bytes as they were`, async () => {
        expect(report.skippedPages).toContainEqual({ file, reason: expect.stringMatching(expected.skipped) })
        expect((await readFile(join(dir, file))).equals(before.get(name) ?? Buffer.alloc(0))).toBe(true)
      })
      continue
    }

    if ('untouched' in expected) {
      it(`leaves ${name} alone: its marker is not part of the document`, async () => {
        expect(report.skippedPages.map((page) => page.file)).not.toContain(file)
        expect((await readFile(join(dir, file))).equals(before.get(name) ?? Buffer.alloc(0))).toBe(true)
      })
      continue
    }

    it(`gives ${name} exactly one Product node, in the head`, async () => {
      expect(report.skippedPages.map((page) => page.file)).not.toContain(file)
      const scripts = scriptsOf(parsePage(await readFile(join(dir, file), 'utf8')))
      const products = productNodes(scripts)
      expect(products).toHaveLength(1)
      expect(products[0]?.inHead).toBe(true)
      expect(products[0]?.node).toMatchObject({
        '@id': pageUrlOf(file, SITE),
        aggregateRating: { ratingValue: 4.5, reviewCount: 2 },
        ...(expected.name === undefined ? {} : { name: expected.name }),
      })
    })

    it(`leaves the text of ${name}'s own scripts as it was, and it still parses`, async () => {
      const original = scriptsOf(parsePage((before.get(name) ?? Buffer.alloc(0)).toString('utf8')))
      const after = scriptsOf(parsePage(await readFile(join(dir, file), 'utf8')))
      const ours = after.findIndex(isInjectorScript)
      expect(ours).not.toBe(-1)
      const own = after.filter((_, index) => index !== ours)
      const expectedOwn =
        expected.injected === 'merged' ? original.filter((_, index) => index !== ours) : original
      expect(own.map((script) => script.text)).toEqual(expectedOwn.map((script) => script.text))
      for (const script of own) stillParses(script)
    })

    it(`leaves every byte of ${name} outside the edited range as it was`, async () => {
      const original = before.get(name) ?? Buffer.alloc(0)
      const after = await readFile(join(dir, file))
      const { prefix, suffix } = commonEnds(original, after)
      const edited = { start: prefix, end: original.length - suffix }
      if (expected.injected === 'added') {
        // A pure insertion: nothing of the page is replaced.
        expect(edited.end).toBe(edited.start)
        return
      }
      // A merge rewrites the page's own Product script (start tag and text), nothing else.
      const text = original.toString('utf8')
      const target = scriptsOf(parsePage(text)).find((script) => isJsonLd(script))
      const location = target?.element.sourceCodeLocation
      const bom = text.startsWith('\ufeff') ? 1 : 0
      const byteOffset = (offset: number) => Buffer.byteLength(text.slice(0, offset + bom))
      expect(edited.start).toBeGreaterThanOrEqual(byteOffset(location?.startOffset ?? Number.NaN))
      expect(edited.end).toBeLessThanOrEqual(byteOffset(location?.endOffset ?? Number.NaN))
    })
  }
})
