// Issue 9, proof: hostile upstream text through every path that renders it, loaded in real Chromium.
//
// Every payload of HOSTILE_CORPUS goes into every upstream text field (review text, author names,
// moderation comments and their translations, criteria, product and brand names, source and media
// URLs, locales, the AI summary through the product name) and is rendered by: the React
// presentational components, the Astro components (Astro's container API), JSON-LD built from data,
// JSON-LD from the structured-datas operation, the injector (added and merged), the React and Astro
// data components against a sandbox seeded with the payloads through its admin additions route, and
// the "More reviews" island, hydrated in the page and fed by the real reviews endpoint. Each page is
// loaded in Chromium with a trap installed before any page script (see browser-harness.ts): a script
// that runs, a navigation, a request beyond the page's own and review photos, an element or attribute
// the components do not emit, an event handler or a URL of another scheme fails the test. JSON-LD must
// parse back (with the browser's JSON.parse) to the exact payload strings; lone surrogates survive as
// escapes, and are accepted as U+FFFD too where a text path (HTML) went through UTF-8.

import type {
  BrandReview,
  ProductReview,
  ProductSummary,
  VerifiedReviewsClient,
} from '@verified-reviews/core'
import { createReviewsHandler } from '@verified-reviews/core/endpoint'
import {
  buildProductJsonLd,
  fromStructuredData,
  type JsonLdNode,
  jsonLdScriptTag,
  type ProductFacts,
  reviewAuthorName,
} from '@verified-reviews/core/jsonld'
import { addProductJsonLd, PRODUCT_META_NAME } from '@verified-reviews/inject'
import {
  BrandRating,
  BrandReviews,
  BrandReviewsView,
  ProductReviews,
  ProductReviewsView,
  RatingSummary,
  ReviewItem,
  ReviewList,
  ReviewSummary,
  ReviewsJsonLd,
  ShopRating,
} from '@verified-reviews/react'
import { build } from 'esbuild'
import type { Page } from 'playwright-core'
import { createElement, type ReactElement } from 'react'
import { renderToStaticMarkup, renderToString } from 'react-dom/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOSTILE_CORPUS, type HostileCase } from '../fixtures/hostile.ts'
import { brandRating, brandReview, productReview, productSummary } from '../fixtures/reviews.ts'
import { startSandbox, type TestSandbox } from '../fixtures/sandbox.ts'
import { type AstroRenderer, startAstroRenderer } from './astro-container.ts'
import {
  type Allowlist,
  allowlistOf,
  type ExpectedText,
  Harness,
  textDigest,
  type Visit,
  withReplacedSurrogates,
} from './browser-harness.ts'

const PAGE_URL = 'https://shop.example/products/hostile'
const ENDPOINT = '/api/reviews'
const ISLAND_BUNDLE = '/island.js'
/** Reviews per page of the island: every product has three or four, so one more page holds the rest. */
const ISLAND_PAGE = 2
const BENIGN: HostileCase = { name: 'benign text', value: 'Good tea, fast delivery.' }
/** The organization the AI summary is attributed to in JSON-LD. */
const SUMMARY_AUTHOR = 'Maison Sandbox'
/** A review photo's address in benign data (the corpus's own web URLs use example.test). */
const PHOTO = 'https://media.example/photo.svg'

// ---- data filled from a payload ----

/**
 * What goes where. Every upstream string gets the payload, with three exceptions that keep pages and
 * requests to a sensible size and reviews markable: a payload of 20,000 characters or more goes in the
 * main fields only (review text, product name, author, reply, shop name, AI summary; the others get
 * `Short text`), one of 200,000 or more only in the review text and the product name; and the author of
 * a review that JSON-LD must mark up gets the payload only when it fits a name Google accepts (99
 * characters; other reviews of the page carry the longer ones).
 */
interface Values {
  /** Review text, product name. */
  main: string
  /** Author (of reviews not marked up), reply, shop name, AI summary, syndication source. */
  side: string
  /** Every other string: last names, order references, criteria, codes, origins. */
  other: string
  /** Author of the reviews JSON-LD marks up. */
  author: string
  locale: string
  /** Image and source URLs. */
  url: string
}

function valuesOf(payload: HostileCase): Values {
  const p = payload.value
  if (payload === BENIGN) return { main: p, side: p, other: p, author: 'Marie', locale: 'fr_FR', url: PHOTO }
  const big = p.length >= 20_000
  const other = big ? 'Short text' : p
  return {
    main: p,
    side: p.length >= 200_000 ? 'Short text' : p,
    other,
    author: p.length <= 90 ? p : 'Marie',
    locale: other,
    url: big ? PHOTO : p,
  }
}

/** A date-valid product review whose every upstream string comes from `v`. */
function hostileProductReview(v: Values, overrides: Partial<ProductReview> = {}): ProductReview {
  return productReview({
    review_id: 'hostile',
    author_firstname: v.author,
    author_lastname: v.other,
    locale: v.locale,
    review_content: v.main,
    order_reference: v.other,
    order_id: v.other,
    product_name: v.main,
    product_brand: v.other,
    product_sku: v.other,
    product_mpn: v.other,
    incentivization: 'gifted',
    translated_review: { en: v.main },
    syndicated_review: false,
    medias: [{ type: 'IMAGE', small: v.url, medium: v.url, large: v.url }],
    moderations: [
      {
        comment: v.side,
        date: '2025-03-06T09:00:00Z',
        origin: v.other,
        origin_type: v.other,
        translated_comment: { en: v.side },
      },
    ],
    extras: {
      [v.other]: { display_name: v.other, label: v.other, type: 'I1', value: 4 },
      text: { display_name: v.other, label: v.other, type: 'S', value: v.other },
    },
    ...overrides,
  })
}

/** A syndicated review (never marked up): its author gets the payload whatever its length. */
function syndicatedReview(v: Values): ProductReview {
  return hostileProductReview(v, {
    review_id: 'syndicated',
    author_firstname: v.side,
    syndicated_review: true,
    syndicated_review_source: v.side,
    syndicated_review_source_url: v.url,
  })
}

function hostileBrandReview(v: Values): BrandReview {
  return brandReview({
    review_id: 'hostile-brand',
    shop_key: v.other,
    website_id: v.other,
    author_firstname: v.side,
    author_lastname: v.other,
    locale: v.locale,
    review_content: v.main,
    order_reference: v.other,
    moderations: [{ comment: v.side, date: '2025-01-14T10:00:00Z', origin: v.other, origin_type: v.other }],
    extras: { [v.other]: { display_name: v.other, label: v.other, type: 'S', value: v.other } },
  })
}

/** Product facts as a page may take them from a catalogue: name, brand, image, description. */
function productFacts(v: Values): ProductFacts {
  return {
    name: v.main,
    brand: { '@type': 'Brand', name: v.other },
    image: v.url,
    description: v.other,
    sku: v.other,
  }
}

function summaryOf(v: Values) {
  return productSummary({
    review_summary: { content: v.side, last_updated_at: '2025-03-01T00:00:00Z' },
    extras: [{ type: 'rate', display_name: v.other, label: v.other, rate: { average: 4, count: 3 } }],
  })
}

/** The texts a page of these reviews shows: the review text and the reply, as written. */
function shownTexts(section: string, v: Values): ExpectedText[] {
  return [
    { selector: `[data-section="${section}"] .vr-review__content`, text: v.main },
    { selector: `[data-section="${section}"] .vr-reply__content`, text: v.side },
  ]
}

/** What JSON-LD built by the core from a review holds: its text and its author's name. */
function jsonLdOfReview(review: ProductReview): string[] {
  return [review.review_content, reviewAuthorName(review)]
}

// ---- the sandbox, seeded with the payloads through POST /__sandbox/product-reviews ----

const productIdOf = (index: number) => `HOSTILE-${String(index).padStart(3, '0')}`
const shopKeyOf = (index: number) => `hostile-${index}`
/** The index of the benign payload's product and shop, seeded after the corpus. */
const BENIGN_INDEX = HOSTILE_CORPUS.length

/**
 * Three reviews of a product of its own per payload (the first syndicated; the third gives the product
 * an AI summary, which the sandbox writes from the product name) and one brand review of a shop of its
 * own, one review per request so that each stays under the sandbox's 1 MiB body limit. A payload of
 * 200,000 characters or more fills one field per review: product name, text, reply, author.
 */
function additionsOf(v: Values, index: number): { product: unknown[]; brand: unknown[] } {
  const id = productIdOf(index)
  const review = (syndicated: boolean, author: string) => ({
    product_variation_id: id,
    author_firstname: author,
    author_lastname: v.other,
    is_personal_data_disclosed: true,
    locale: v.locale,
    review_content: v.main,
    order_reference: v.other,
    order_id: v.other,
    incentivization: 'gifted',
    syndicated_review: syndicated,
    ...(syndicated ? { syndicated_review_source: v.side, syndicated_review_source_url: v.url } : {}),
    translated_review: { en: v.main },
    medias: [{ type: 'IMAGE', small: v.url, medium: v.url, large: v.url }],
    moderations: [
      {
        comment: v.side,
        date: '2025-03-06T09:00:00Z',
        origin: v.other,
        origin_type: 'moderator',
        translated_comment: { en: v.side },
      },
    ],
    extras: {
      [v.other]: { display_name: v.other, label: v.other, type: 'I1', value: 3 },
      fit: { display_name: v.other, label: v.other, type: 'S', value: v.other },
    },
  })
  const brand = {
    shop_key: shopKeyOf(index),
    author_firstname: v.side,
    author_lastname: v.other,
    locale: v.locale,
    review_content: v.main,
    order_reference: v.other,
    moderations: [
      { comment: v.side, date: '2025-03-06T09:00:00Z', origin: v.other, origin_type: 'moderator' },
    ],
    extras: { [v.other]: { display_name: v.other, label: v.other, type: 'S', value: v.other } },
  }
  if (v.main.length >= 200_000) {
    const moderation = { date: '2025-03-06T09:00:00Z', origin: 'Acme', origin_type: 'moderator' }
    return {
      product: [
        { product_variation_id: id, product_name: v.main, syndicated_review: false },
        { product_variation_id: id, review_content: v.main, translated_review: {}, syndicated_review: false },
        {
          product_variation_id: id,
          moderations: [{ ...moderation, comment: v.main }],
          syndicated_review: false,
        },
        { product_variation_id: id, author_firstname: v.main, author_lastname: '', syndicated_review: false },
      ],
      brand: [{ shop_key: shopKeyOf(index), review_content: v.main }],
    }
  }
  return {
    product: [
      { ...review(true, v.side), product_name: v.main, product_brand: v.other },
      review(false, v.author),
      review(false, v.side),
    ],
    brand: [brand],
  }
}

async function seed(sb: TestSandbox): Promise<void> {
  for (const [index, payload] of [...HOSTILE_CORPUS, BENIGN].entries()) {
    const { product, brand } = additionsOf(valuesOf(payload), index)
    for (const review of product) await sb.admin('POST', 'product-reviews', [review])
    await sb.admin('POST', 'brand-reviews', brand)
  }
}

let sb: TestSandbox
let client: VerifiedReviewsClient
let harness: Harness
let astro: AstroRenderer
let restoreEnvironment: () => void

interface Upstream {
  summary: ProductSummary
  reviews: ProductReview[]
}

const upstream = new Map<number, Promise<Upstream>>()

/** The sandbox's data of a payload's product: its summary and reviews, newest first (fetched once). */
function upstreamOf(index: number): Promise<Upstream> {
  let found = upstream.get(index)
  if (found === undefined) {
    const id = productIdOf(index)
    found = Promise.all([
      client.products.list({ product_variation_id: [id] }),
      client.products.reviews.list({
        product_variation_id: [id],
        sort: ['publish_date'],
        desc: ['publish_date'],
        limit: 10,
      }),
    ]).then(([products, reviews]) => {
      const summary = products.data[0]
      if (summary === undefined) throw new Error(`the sandbox has no ${id}`)
      return { summary, reviews: reviews.data }
    })
    upstream.set(index, found)
  }
  return found
}

/**
 * What JSON-LD built by the core from the sandbox's reviews must hold: the payload as the text of the
 * reviews it marks up (not syndicated, with an author name Google accepts), and their authors' names.
 */
function upstreamJsonLd(v: Values, reviews: ProductReview[], authors = true): string[] {
  const marked = reviews.filter(
    (review) =>
      !review.syndicated_review &&
      review.review_content === v.main &&
      reviewAuthorName(review) !== '' &&
      reviewAuthorName(review).length <= 99,
  )
  if (marked.length === 0) throw new Error('no review of the payload to mark up')
  return authors ? marked.flatMap(jsonLdOfReview) : [v.main]
}

// ---- the pages ----

/** One page kind: its HTML for a payload, what it must show and hold, and what to click. */
interface Rendered {
  html: string
  texts?: ExpectedText[]
  /** Strings each section's JSON-LD must hold exactly (lone surrogates also as U+FFFD), by section. */
  jsonLd?: Record<string, string[]>
  jsonLdScripts?: number
  act?: (page: Page) => Promise<void>
}

interface PageKind {
  name: string
  render(payload: HostileCase, index: number): Promise<Rendered>
}

const SECTIONS = {
  react: 'React components',
  astro: 'Astro components',
  data: 'JSON-LD from data',
  api: 'JSON-LD from the structured-datas operation',
  reactData: 'React data components',
  astroData: 'Astro data components',
} as const

/** The React presentational components, to static markup, with props from the payload. */
function reactComponents(v: Values): string {
  const review = hostileProductReview(v)
  const summary = summaryOf(v)
  const elements: ReactElement[] = [
    createElement(RatingSummary, {
      rating: summary.ratings,
      criteria: [...(summary.extras ?? []), { label: v.other, average: 3, count: 2 }],
      rateHref: (rate: number) => `?vr_rate=${rate}`,
    }),
    createElement(ReviewItem, { review }),
    createElement(ReviewList, {
      reviews: [review, syndicatedReview(v)],
      previousHref: '?p=1',
      nextHref: '?p=3',
    }),
    createElement(ReviewSummary, { summary: summary.review_summary }),
    createElement(BrandRating, { rating: brandRating({ shop_key: v.other, website_id: v.other }) }),
    createElement(ShopRating, { rating: brandRating({ shop_key: v.other }), name: v.side }),
    createElement(ProductReviewsView, {
      productId: 'SKU-1',
      summary,
      reviews: [review, syndicatedReview(v)],
      url: PAGE_URL,
      product: productFacts(v),
      reviewSummaryAuthor: SUMMARY_AUTHOR,
    }),
    createElement(BrandReviewsView, {
      rating: brandRating({ shop_key: 'lyon' }),
      shopKey: 'lyon',
      shopName: v.side,
      reviews: [hostileBrandReview(v)],
    }),
  ]
  return elements.map((element) => renderToStaticMarkup(element)).join('')
}

/** The Astro presentational components, through the container, with the same props. */
async function astroComponents(v: Values): Promise<string> {
  const review = hostileProductReview(v)
  const summary = summaryOf(v)
  const parts = await Promise.all([
    astro.render('RatingSummary', {
      rating: summary.ratings,
      criteria: [...(summary.extras ?? []), { label: v.other, average: 3, count: 2 }],
      rateHref: (rate: number) => `?vr_rate=${rate}`,
    }),
    astro.render('ReviewItem', { review }),
    astro.render('ReviewList', {
      reviews: [review, syndicatedReview(v)],
      previousHref: '?p=1',
      nextHref: '?p=3',
    }),
    astro.render('ReviewSummary', { summary: summary.review_summary }),
    astro.render('BrandRating', { rating: brandRating({ shop_key: v.other, website_id: v.other }) }),
    astro.render('ShopRating', { rating: brandRating({ shop_key: v.other }), name: v.side }),
    astro.render('ReviewItem', { review: hostileBrandReview(v) }),
    astro.render('ReviewsJsonLd', {
      url: PAGE_URL,
      product: productFacts(v),
      rating: { average: 4.5, count_total: 2 },
      reviews: [review],
      reviewSummary: summary.review_summary,
      reviewSummaryAuthor: SUMMARY_AUTHOR,
    }),
  ])
  return parts.join('')
}

/** JSON-LD built from data by the core and by the React component, serialized into script elements. */
function jsonLdFromData(v: Values): string {
  const options = {
    url: PAGE_URL,
    product: productFacts(v),
    rating: { average: 4.5, count_total: 1 },
    reviews: [hostileProductReview(v)],
    reviewSummary: { content: v.side, last_updated_at: '2025-03-01T00:00:00Z' },
    reviewSummaryAuthor: SUMMARY_AUTHOR,
  }
  return (
    jsonLdScriptTag(buildProductJsonLd(options)) + renderToStaticMarkup(createElement(ReviewsJsonLd, options))
  )
}

/** JSON-LD of the structured-datas operation: core, React and Astro, each re-serializing the answer. */
async function jsonLdFromApi(index: number): Promise<string> {
  const id = productIdOf(index)
  const data = await client.products.structuredData.get({
    product_variation_id: [id],
    canonical_url: PAGE_URL,
  })
  // The page's own facts, without the payload: the payload must come from the API's answer.
  const options = { url: PAGE_URL, product: { name: 'Teapot' }, reviewSummaryAuthor: SUMMARY_AUTHOR }
  const react = await ReviewsJsonLd({ source: 'api', productId: id, client, ...options })
  return [
    jsonLdScriptTag(fromStructuredData(data, options)),
    react === null ? '' : renderToStaticMarkup(react),
    await astro.render('ReviewsJsonLd', { source: 'api', productId: id, ...options }),
  ].join('')
}

/** A product page of a shop, marked for the injector, with its own Product JSON-LD or none. */
function productPage(index: number, own: boolean): string {
  const node = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    '@id': PAGE_URL,
    name: 'Teapot',
    offers: { '@type': 'Offer', price: '12.00', priceCurrency: 'EUR' },
  }
  const head = `<meta name="${PRODUCT_META_NAME}" content="${productIdOf(index)}" data-harness>${
    own ? `<script type="application/ld+json" data-harness>${JSON.stringify(node)}</script>` : ''
  }`
  return harness.page('<h1 data-harness>Teapot</h1>', { head })
}

/** The node the injector adds for a payload's product, built from the sandbox's data. */
async function injectedNode(index: number): Promise<{ node: JsonLdNode; reviews: ProductReview[] }> {
  const { summary, reviews } = await upstreamOf(index)
  const product = reviews.at(-1)
  const node = buildProductJsonLd({
    url: PAGE_URL,
    product: {
      name: product?.product_name ?? '',
      brand: { '@type': 'Brand', name: product?.product_brand ?? '' },
    },
    rating: summary.ratings,
    reviews,
    ...(summary.review_summary ? { reviewSummary: summary.review_summary } : {}),
    reviewSummaryAuthor: SUMMARY_AUTHOR,
  })
  if (node === null) throw new Error('no JSON-LD for the product')
  // A Product node is a JSON-LD node; its interface type lacks the index signature.
  return { node: node as unknown as JsonLdNode, reviews }
}

async function injected(payload: HostileCase, index: number, own: boolean): Promise<Rendered> {
  const { node, reviews } = await injectedNode(index)
  const result = addProductJsonLd(productPage(index, own), node)
  const wanted = own ? 'merged' : 'added'
  if (result.status !== wanted) throw new Error(`the injector answered ${result.status}, not ${wanted}`)
  return { html: result.html, jsonLd: { head: upstreamJsonLd(valuesOf(payload), reviews) }, jsonLdScripts: 1 }
}

/** JSON for a script element, by the core serializer (`<`, `>`, `&`, U+2028, U+2029 escaped). */
function scriptJson(value: unknown): string {
  return jsonLdScriptTag(value)
    .replace(/^<script[^>]*>/, '')
    .replace(/<\/script>$/, '')
}

const PAGE_KINDS: PageKind[] = [
  {
    name: 'the server renders (React and Astro components, JSON-LD from data and from the API, data components)',
    async render(payload, index) {
      const v = valuesOf(payload)
      const id = productIdOf(index)
      const [astroHtml, api, product, brand, astroData, { reviews }] = await Promise.all([
        astroComponents(v),
        jsonLdFromApi(index),
        ProductReviews({ productId: id, url: PAGE_URL, client, reviewSummaryAuthor: SUMMARY_AUTHOR }),
        BrandReviews({ shopKey: shopKeyOf(index), shopName: v.side, client }),
        Promise.all([
          astro.render('ProductReviews', {
            productId: id,
            url: PAGE_URL,
            reviewSummaryAuthor: SUMMARY_AUTHOR,
          }),
          astro.render('BrandReviews', { shopKey: shopKeyOf(index), shopName: v.side }),
        ]),
        upstreamOf(index),
      ])
      const reactData = [product, brand]
        .map((element) => (element === null ? '' : renderToString(element)))
        .join('')
      const html = harness.page(
        [
          Harness.section(SECTIONS.react, reactComponents(v)),
          Harness.section(SECTIONS.astro, astroHtml),
          Harness.section(SECTIONS.data, jsonLdFromData(v)),
          Harness.section(SECTIONS.api, api),
          Harness.section(SECTIONS.reactData, reactData),
          Harness.section(SECTIONS.astroData, astroData.join('')),
        ].join(''),
      )
      const ofReview = jsonLdOfReview(hostileProductReview(v))
      const upstream = upstreamJsonLd(v, reviews)
      return {
        html,
        texts: [
          ...shownTexts(SECTIONS.react, v),
          ...shownTexts(SECTIONS.astro, v),
          // The sandbox's reviews of a megabyte payload hold it in one field each, the reply included.
          ...[SECTIONS.reactData, SECTIONS.astroData].flatMap((section) =>
            shownTexts(section, v.main.length >= 200_000 ? { ...v, side: v.main } : v),
          ),
        ],
        jsonLd: {
          [SECTIONS.react]: ofReview,
          [SECTIONS.astro]: ofReview,
          [SECTIONS.data]: ofReview,
          // The sandbox writes author names its own way: only the texts are compared.
          [SECTIONS.api]: upstreamJsonLd(v, reviews, false),
          [SECTIONS.reactData]: upstream,
          [SECTIONS.astroData]: upstream,
        },
        // React: ProductReviewsView; Astro: ReviewsJsonLd; data: 2; API: 3; React data: 1; Astro data: 1.
        jsonLdScripts: 9,
      }
    },
  },
  { name: 'the injector, adding to a page', render: (payload, index) => injected(payload, index, false) },
  {
    name: 'the injector, merging into a page’s own Product node',
    render: (payload, index) => injected(payload, index, true),
  },
  {
    name: 'the "More reviews" island, hydrated, drawing the reviews endpoint’s answers',
    async render(payload, index) {
      const element = await ProductReviews({
        productId: productIdOf(index),
        client,
        endpoint: ENDPOINT,
        limit: ISLAND_PAGE,
        jsonLd: false,
      })
      if (element === null) throw new Error('ProductReviews rendered nothing')
      const props = { ...(element.props as Record<string, unknown>) }
      if (props.searchParams instanceof URLSearchParams)
        props.searchParams = Object.fromEntries(props.searchParams)
      const server = renderToString(createElement(ProductReviewsView, props as never))
      const body =
        Harness.section('island', `<div id="island-root" data-harness>${server}</div>`) +
        `<script type="application/json" id="island-props" data-harness>${scriptJson(props)}</script>`
      return {
        html: harness.page(body, { scripts: [ISLAND_BUNDLE] }),
        // The reviews the island drew, after the server's page: one of them holds the payload.
        texts: [
          {
            selector: `.vr-review-list__items > li:nth-child(n+${ISLAND_PAGE + 1}) .vr-review__content`,
            text: valuesOf(payload).main,
          },
        ],
        act: async (page) => {
          await page.waitForFunction(
            () => (window as { __islandHydrated?: boolean }).__islandHydrated === true,
          )
          // The server drew the newest reviews; "More reviews" has the island fetch the rest.
          await page.click('.vr-review-list__more')
          await page.waitForFunction(
            (n) => document.querySelectorAll('.vr-review-list__items > li').length > n,
            ISLAND_PAGE,
            { timeout: 20_000 },
          )
        },
      }
    },
  },
]

/** The island bundle: ProductReviewsView hydrated over the server's markup, as a framework does. */
async function islandBundle(): Promise<string> {
  const result = await build({
    stdin: {
      contents: `
        import { createElement } from 'react'
        import { hydrateRoot } from 'react-dom/client'
        import { ProductReviewsView } from '../../packages/react/src/components/ProductReviewsView.tsx'
        const props = JSON.parse(document.getElementById('island-props').textContent)
        hydrateRoot(document.getElementById('island-root'), createElement(ProductReviewsView, props))
        setTimeout(() => { window.__islandHydrated = true })
      `,
      resolveDir: new URL('.', import.meta.url).pathname,
      loader: 'tsx',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: ['@verified-reviews/source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
    logLevel: 'error',
  })
  return result.outputFiles[0]?.text ?? ''
}

// ---- the runs ----

/** Lone surrogates found as U+FFFD in JSON-LD rather than as themselves, by section (reported). */
const replaced = new Map<string, number>()

function checkJsonLd(visit: Visit, wanted: Record<string, string[]>): string[] {
  const missing: string[] = []
  for (const [section, texts] of Object.entries(wanted)) {
    const leaves = new Set(
      visit.jsonLd.filter((script) => script.section === section).flatMap((s) => s.leaves),
    )
    for (const text of texts) {
      if (leaves.has(textDigest(text))) continue
      if (leaves.has(textDigest(withReplacedSurrogates(text)))) {
        replaced.set(section, (replaced.get(section) ?? 0) + 1)
        continue
      }
      missing.push(`${section}: its JSON-LD lacks ${JSON.stringify(text.slice(0, 60))}`)
    }
  }
  return missing
}

beforeAll(async () => {
  sb = await startSandbox({ rateLimit: 0 })
  client = sb.client({ maxRetries: 0 })
  await seed(sb)
  // The Astro data components use the client the environment describes.
  const env = sb.env()
  const saved = Object.keys(env).map((name) => [name, process.env[name]] as const)
  Object.assign(process.env, env)
  restoreEnvironment = () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
  astro = await startAstroRenderer()
  harness = await Harness.start({ sandboxOrigin: sb.sandbox.origin })
  const bundle = await islandBundle()
  harness.route(
    ISLAND_BUNDLE,
    async () => new Response(bundle, { headers: { 'content-type': 'text/javascript; charset=utf-8' } }),
  )
  // The real endpoint over the same client, so it opens the cursors the components signed.
  harness.route(ENDPOINT, createReviewsHandler({ client, reservedRateShare: 0 }))
}, 300_000)

afterAll(async () => {
  restoreEnvironment?.()
  await harness?.close()
  await astro?.close()
  await sb?.close()
  const surrogates = [...replaced].map(([section, count]) => `${section} ${count}`).join(', ')
  console.info(
    `hostile-render: ${HOSTILE_CORPUS.length} payloads, ${PAGE_KINDS.length} pages each; lone surrogates read back as U+FFFD in JSON-LD: ${surrogates || 'none (all exact)'}`,
  )
})

it(`the corpus holds at least 40 payloads with unique names (${HOSTILE_CORPUS.length})`, () => {
  expect(HOSTILE_CORPUS.length).toBeGreaterThanOrEqual(40)
  expect(new Set(HOSTILE_CORPUS.map((c) => c.name)).size).toBe(HOSTILE_CORPUS.length)
})

describe.each(PAGE_KINDS)('$name', (kind) => {
  let allow: Allowlist

  beforeAll(async () => {
    // The allowlist: the tags and attributes of the same page with benign text, which must pass the trap.
    const benign = await kind.render(BENIGN, BENIGN_INDEX)
    const visit = await harness.visit('/benign', benign.html, null, benign, benign.act)
    expect([...visit.problems, ...checkJsonLd(visit, benign.jsonLd ?? {})], 'the benign page').toEqual([])
    allow = allowlistOf(visit)
  }, 120_000)

  it.each(HOSTILE_CORPUS.map((payload, index) => ({ ...payload, index })))(
    'keeps a $name inert',
    async (payload) => {
      const rendered = await kind.render(payload, payload.index)
      const visit = await harness.visit(
        `/page-${payload.index}`,
        rendered.html,
        allow,
        rendered,
        rendered.act,
      )
      expect([...visit.problems, ...checkJsonLd(visit, rendered.jsonLd ?? {})]).toEqual([])
    },
    180_000,
  )
})

describe('the trap, against markup written without escaping (controls: each way of failing is seen)', () => {
  const allow: Allowlist = { tags: new Set(['div', 'p']), attributes: new Set(['class']) }
  const raw = (html: string) => harness.page(`<div class="vr-review">${html}</div>`)

  it.each([
    ['<script>__pwned(1)</script>', 'script ran: __pwned(1)'],
    ['<img src=x onerror=__pwned(2)>', 'script ran: __pwned(2)'],
    ['<img src=x onerror=__pwned(2)>', 'event handler <img onerror>'],
    ['<img src=x>', 'request to'],
    ['<svg/onload=__pwned(3)>', 'script ran: __pwned(3)'],
    ['<iframe srcdoc="<p>x</p>"></iframe>', 'frame attached'],
    ['<meta http-equiv="refresh" content="0;url=/elsewhere">', 'navigated to'],
    ['<a href="javascript:__pwned(4)">x</a>', 'URL of another scheme'],
    ['<b>bold</b>', 'injected element <b>'],
    ['<p title="x">x</p>', 'injected attribute <p title>'],
    ['<style>p{}</style>', 'script ran: CSP style-src-elem'],
    ['<!--', 'its end was swallowed'],
    ['<textarea>', 'its end was swallowed'],
  ])('reports %s as “%s”', async (html, report) => {
    const visit = await harness.visit('/control', raw(html), allow)
    expect(visit.problems.join('\n')).toContain(report)
  })

  it('reports JSON-LD serialized without escaping: it ends early, runs and does not parse', async () => {
    const json = JSON.stringify({ reviewBody: '</script><script>__pwned(5)</script>' })
    const page = harness.page('', { head: `<script type="application/ld+json">${json}</script>` })
    const visit = await harness.visit('/control', page, null)
    expect(visit.problems.join('\n')).toContain('script ran: __pwned(5)')
    expect(visit.problems.join('\n')).toContain('does not parse')
  })

  it('reports a text the page does not show as written', async () => {
    const visit = await harness.visit('/control', raw('&lt;b&gt;'), allow, {
      texts: [{ selector: '.vr-review', text: '&lt;b&gt;' }],
    })
    expect(visit.problems).toEqual(['page: no .vr-review shows the text'])
  })

  it('tells a lone surrogate kept in JSON-LD from one replaced by U+FFFD', async () => {
    const text = 'x\uD800y'
    const page = harness.page('', {
      head: `<script type="application/ld+json">${JSON.stringify({ kept: text, replaced: withReplacedSurrogates(text) })}</script>`,
    })
    const visit = await harness.visit('/control', page, null)
    const leaves = visit.jsonLd.flatMap((script) => script.leaves)
    expect(leaves).toContain(textDigest(text))
    expect(leaves).toContain(textDigest(withReplacedSurrogates(text)))
    expect(textDigest(text)).not.toBe(textDigest(withReplacedSurrogates(text)))
  })
})
