import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ProductReview } from '@verified-reviews/core'
import { continuationCursor, cursorSigner } from '@verified-reviews/core/endpoint'
import { buildProductJsonLd } from '@verified-reviews/core/jsonld'
import {
  BrandRating,
  BrandReviews,
  ProductReviewsView,
  RatingSummary,
  ReviewItem,
  ReviewList,
  ReviewSummary,
  ShopRating,
  StarRating,
} from '@verified-reviews/react'
import { JSDOM } from 'jsdom'
import { createElement, type FunctionComponent, type ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { productReview } from '../../../test/fixtures/reviews.ts'
import { startSandbox, type TestSandbox } from '../../../test/fixtures/sandbox.ts'
import { buildFixture, pointEnvironmentAt, readPages, takeOperations } from '../test/build-fixture.ts'
import { CASES, type ComponentName } from '../test/fixtures/components/cases.ts'
import verifiedReviews from './index.ts'

/** The React component of each case. */
const REACT = {
  StarRating,
  RatingSummary,
  ReviewItem,
  ReviewList,
  ReviewSummary,
  BrandRating,
  ShopRating,
} as unknown as Record<ComponentName, FunctionComponent<Record<string, unknown>>>

let sb: TestSandbox
let restoreEnvironment: () => void
let outDir: string
let cacheDir: string
let pages: Map<string, string>
let operations: Record<string, number>

beforeAll(async () => {
  sb = await startSandbox({ seed: 1 })
  restoreEnvironment = pointEnvironmentAt(sb)
  outDir = await mkdtemp(join(tmpdir(), 'vr-astro-components-'))
  cacheDir = await mkdtemp(join(tmpdir(), 'vr-astro-components-cache-'))
  await buildFixture('components', {
    site: 'https://shop.example',
    outDir,
    cacheDir,
    integrations: [verifiedReviews()],
  })
  operations = await takeOperations(sb)
  pages = await readPages(outDir)
}, 120_000)

afterAll(async () => {
  restoreEnvironment?.()
  await sb?.close()
  await rm(outDir, { recursive: true, force: true })
  await rm(cacheDir, { recursive: true, force: true })
})

/**
 * An element as normalized DOM, so that the templates are free to be formatted for people: what HTML does
 * not distinguish is left out (attribute order, comments, how characters are escaped) and whitespace is
 * normalized: runs collapse to one space, whitespace between tags and at the start and end of an
 * element's content is dropped. Spaces inside text, next to an inline element, still count.
 */
function canonical(element: Element): string {
  const attributes = [...element.attributes]
    .map((attribute) => `${attribute.name}=${JSON.stringify(attribute.value)}`)
    .sort()
    .join(' ')
  const nodes = [...element.childNodes].filter(
    (node) => node.nodeType === node.ELEMENT_NODE || node.nodeType === node.TEXT_NODE,
  )
  const children = nodes
    .map((node, index) => {
      if (node.nodeType === node.ELEMENT_NODE) return canonical(node as Element)
      const text = (node.textContent ?? '').replace(/\s+/g, ' ')
      if (text.trim() === '') return ''
      const start = index === 0 ? text.trimStart() : text
      return index === nodes.length - 1 ? start.trimEnd() : start
    })
    .join('')
  return `<${element.localName}${attributes === '' ? '' : ` ${attributes}`}>${children}</${element.localName}>`
}

function caseOf(html: string): string {
  const element = new JSDOM(html).window.document.querySelector('#case')
  if (element === null) throw new Error('the page has no #case element')
  return canonical(element)
}

function page(file: string): string {
  const html = pages.get(file)
  if (html === undefined) throw new Error(`the build has no ${file}`)
  return html
}

/** The same props the React way: `class` becomes `className`. */
function reactProps(props: Record<string, unknown>): Record<string, unknown> {
  const { class: className, ...rest } = props
  return className === undefined ? rest : { ...rest, className }
}

function reactCase(element: ReactElement): string {
  return caseOf(`<div id="case">${renderToStaticMarkup(element)}</div>`)
}

function jsonLdOf(html: string): { attributes: string; value: unknown }[] {
  return [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map((match) => ({
    attributes: match[1] ?? '',
    value: JSON.parse(match[2] ?? ''),
  }))
}

describe('the Astro components render the markup of the React components', () => {
  it.each(Object.entries(CASES))('%s', (name, { component, props }) => {
    const Component = REACT[component]
    expect(caseOf(page(`${name}/index.html`))).toBe(reactCase(createElement(Component, reactProps(props))))
  })

  it.each(['star-rating', 'star-rating-clamped', 'star-rating-rounded'])(
    'renders the star rating of %s byte for byte as React does',
    (name) => {
      const { props } = CASES[name] as (typeof CASES)[string]
      const astro = /<span class="vr-stars[^>]*>[^<]*<\/span>/.exec(page(`${name}/index.html`))?.[0]
      expect(astro).toBe(renderToStaticMarkup(createElement(StarRating, reactProps(props) as never)))
    },
  )

  it('let no hostile content become an element, an event handler or a link of another scheme', () => {
    const document = new JSDOM(page('review-item-hostile/index.html')).window.document
    expect(
      document.querySelectorAll('script, img[onerror], [onfocus], [onmouseover], [autofocus]'),
    ).toHaveLength(0)
    for (const element of document.querySelectorAll('[href], [src], [srcset]')) {
      for (const name of ['href', 'src']) {
        const value = element.getAttribute(name)
        if (value !== null) expect(new URL(value, 'https://page.example/').protocol).toMatch(/^https?:$/)
      }
    }
  })
})

describe('ProductReviews', () => {
  it('renders the markup of the React ProductReviewsView, from the build-time data, with its JSON-LD', async () => {
    const vr = sb.client()
    const summary = (await vr.products.list({ product_variation_id: ['SKU-001'] })).data[0]
    const newest = await vr.products.reviews.list({
      product_variation_id: ['SKU-001'],
      limit: 3,
      sort: ['publish_date'],
      desc: ['publish_date'],
    })
    const expected = createElement(ProductReviewsView, {
      productId: 'SKU-001',
      summary,
      reviews: newest.data,
      // Signed with the key of the build's client (the same secret), as the component signs it.
      nextCursor: await cursorSigner(vr).sign(
        { kind: 'product', id: 'SKU-001', sort: 'newest', rates: [], limit: 3 },
        continuationCursor(newest.data),
      ),
      url: 'https://shop.example/product-reviews/',
      product: { name: 'Merino Wool Sweater' },
      limit: 3,
      locale: 'fr',
    })
    const html = page('product-reviews/index.html')
    // Its own JSON-LD marks the product up: the page is left out of the injection after the build.
    expect(html).not.toContain('data-verified-reviews-product')
    const document = new JSDOM(html).window.document
    const astro = canonical(document.querySelector('#case') as Element)
    const react = reactCase(expected)
    const at = [...astro].findIndex((char, i) => char !== react[i])
    expect(astro.slice(at - 300, at + 300)).toBe(react.slice(at - 300, at + 300))
    expect(astro).toBe(react)
  })

  it('leaves out the links a prerendered page cannot follow', () => {
    const html = page('product-reviews-static/index.html')
    expect(html).toContain('class="vr-review-list__items"')
    expect(html).not.toMatch(/vr-review-controls|vr-review-list__pagination|href="\?/)
    // With `jsonLd={false}` the root marks the product, and the only JSON-LD is the one the injection
    // added to the head.
    expect(html).toContain('data-verified-reviews-product="SKU-002"')
    expect(caseOf(html)).not.toContain('<script')
    expect(html).toContain('<script type="application/ld+json" id="verified-reviews-jsonld">')
  })

  it('leaves unmarked a page whose product has nothing to mark up, so the injection does not read it', () => {
    const html = page('product-reviews-none/index.html')
    // The rating summary says so; the JSON-LD built from that data is empty, as the injection's would be.
    expect(caseOf(html)).toContain('vr-rating-summary--empty')
    expect(html).not.toContain('data-verified-reviews-product')
    expect(html).not.toContain('application/ld+json')
  })
})

describe('BrandReviews', () => {
  it('renders the markup of the React BrandReviews, with the same data', async () => {
    const element = await BrandReviews({ client: sb.client(), limit: 2 })
    if (element === null) throw new Error('the React BrandReviews rendered nothing')
    expect(caseOf(page('brand-reviews/index.html'))).toBe(reactCase(element))
  })
})

describe('ReviewsJsonLd', () => {
  it('marks up the rating and newest reviews of a product with the shared builder, in the language of the page', async () => {
    const vr = sb.client()
    const summary = (await vr.products.list({ product_variation_id: ['SKU-001'] })).data[0]
    const reviews: ProductReview[] = []
    for await (const review of vr.products.reviews.list({ product_variation_id: ['SKU-001'], limit: 200 })) {
      reviews.push(review)
    }
    const expected = buildProductJsonLd({
      url: 'https://shop.example/jsonld-fetched/',
      product: { name: 'Merino Wool Sweater' },
      ...(summary === undefined ? {} : { rating: summary.ratings }),
      reviews,
      // The fixture has no i18n routing: the components show the reviews in English.
      locale: 'en',
    })
    const scripts = jsonLdOf(page('jsonld-fetched/index.html'))
    expect(scripts.map((script) => script.value)).toEqual([expected])
    expect(scripts[0]?.attributes).toBe(' type="application/ld+json" id="reviews-jsonld"')
  })

  it('marks up the data it is given, escaped, with the nonce', () => {
    const [script, ...others] = jsonLdOf(page('jsonld-props/index.html'))
    expect(others).toEqual([])
    expect(script?.attributes).toBe(' type="application/ld+json" nonce="n0nce"')
    expect(script?.value).toEqual(
      buildProductJsonLd({
        url: 'https://shop.example/teapot',
        product: { name: 'Teapot' },
        rating: { average: 4.56, count_total: 2 },
        reviews: [productReview({ review_content: '</script><script>alert(1)</script>' })],
        locale: 'en',
      }),
    )
    expect(page('jsonld-props/index.html')).not.toContain('</script><script>alert(1)')
  })
})

describe('the built site', () => {
  it('ships no JavaScript: every script is JSON-LD', async () => {
    const files = await readdir(outDir, { recursive: true })
    expect(files.filter((file) => /\.m?js$/.test(file))).toEqual([])
    for (const [file, html] of pages) {
      for (const script of new JSDOM(html).window.document.querySelectorAll('script')) {
        expect(script.getAttribute('type'), file).toBe('application/ld+json')
      }
    }
  })

  it('makes no call per page: the reviews come from one sync, the summaries and the injected ratings from one walk', () => {
    expect(operations).toMatchObject({ 'products.reviews.list': 15, 'products.list': 1 })
    expect(operations).not.toHaveProperty(['products.ratings.list'])
  })
})
