import { describe, expect, it, vi } from 'vitest'
import type { StructuredData } from '../../types/published.ts'
import { reviewAuthorName } from '../display/author-name.ts'
import { mergeJsonLd } from './merge.ts'
import { buildOrganizationJsonLd, SELF_SERVING_REVIEWS_OPT_IN } from './organization.ts'
import { buildProductJsonLd } from './product.ts'
import { jsonLdScriptTag, serializeJsonLd } from './serialize.ts'
import { fromStructuredData } from './structured-data.ts'
import { parseStructuredDataScript } from './structured-data-script.ts'

/** Content that has broken JSON-LD script elements elsewhere, or could. */
const HOSTILE: Record<string, string> = {
  closingScript: '</script><script>alert(1)</script>',
  closingScriptUpper: '</SCRIPT>alert(1)',
  closingScriptMixed: '</ScRiPt >x',
  closingScriptSlash: '</script/>',
  comment: '<!-- <script>',
  commentEnd: '-->',
  openingScript: '<script src="https://evil.example/x.js"></script>',
  eventHandler: '<img src=x onerror="alert(1)">',
  attributeBreak: `" onmouseover="alert(1)" x='`,
  javascriptUrl: 'javascript:alert(document.cookie)',
  lineSeparators: 'a\u2028b\u2029c',
  entities: '&lt;script&gt; &amp; &#60; &#x3C; &quot;',
  cdata: ']]><![CDATA[',
  escapes: '\\u003c/script\\u003e \\" \\\\',
  controls: '\u0000\u0007\b\f\n\r\t',
  rightToLeft: 'مراجعة ممتازة \u202Egnp.exe',
  hebrew: 'מוצר מעולה',
  emoji: '👍🏽 👨‍👩‍👧‍👦 🇫🇷',
  loneHighSurrogate: 'a\uD800b',
  loneLowSurrogate: '\uDFFFz',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder text itself is the hostile content
  templates: '${alert(1)} {{constructor.constructor("alert(1)")()}}',
  long: `${'</script>'.repeat(2_000)}${'x'.repeat(100_000)}`,
}

const url = 'https://shop.example/products/kettle?ref=<x>&y="1"'
const UNSAFE = /[<>&\u2028\u2029]/

function expectSafeRoundTrip(value: unknown): void {
  const text = serializeJsonLd(value)
  expect(text).not.toMatch(UNSAFE)
  expect(JSON.parse(text)).toEqual(value)
  const tag = jsonLdScriptTag(value, { id: HOSTILE.attributeBreak ?? '', nonce: HOSTILE.closingScript ?? '' })
  expect(tag.match(/<script/gi)).toHaveLength(1)
  expect(tag.match(/<\/script/gi)).toHaveLength(1)
  expect(tag.endsWith('</script>')).toBe(true)
  const content = tag.slice(tag.indexOf('>') + 1, -'</script>'.length)
  expect(JSON.parse(content)).toEqual(value)
}

describe.each(Object.entries(HOSTILE))('hostile content (%s) in every field', (_label, hostile) => {
  const logger = { warn: vi.fn() }
  const review = {
    author_firstname: hostile.slice(0, 60),
    author_lastname: hostile,
    is_personal_data_disclosed: true,
    publish_date: '2025-03-01T10:00:00Z',
    review_content: hostile,
    review_rate: 4,
  }

  it('survives the product builder and the serializer unchanged', () => {
    const node = buildProductJsonLd({
      url,
      product: {
        name: hostile,
        description: hostile,
        sku: hostile,
        image: hostile,
        brand: { '@type': 'Brand', name: hostile },
        offers: { '@type': 'Offer', url: hostile, price: 10, priceCurrency: 'EUR' },
      },
      rating: { average: 4, count_total: 1 },
      reviews: [review],
      reviewSummary: { content: hostile, last_updated_at: '2025-04-01T00:00:00Z' },
      reviewSummaryAuthor: hostile.slice(0, 60),
      logger,
    })
    expect(node).toMatchObject({ name: hostile, description: hostile, sku: hostile, image: hostile })
    expect(node?.review).toEqual([
      expect.objectContaining({
        reviewBody: hostile,
        author: { '@type': 'Person', name: reviewAuthorName(review) },
      }),
      expect.objectContaining({ reviewBody: hostile }),
    ])
    expectSafeRoundTrip(node)
  })

  it('survives the organization builder and the serializer unchanged', () => {
    const node = buildOrganizationJsonLd({
      url,
      organization: { name: hostile, sameAs: hostile },
      reviews: [review],
      selfServingReviews: SELF_SERVING_REVIEWS_OPT_IN,
      logger,
    })
    expect(node).toMatchObject({ name: hostile, review: [expect.objectContaining({ reviewBody: hostile })] })
    expectSafeRoundTrip(node)
  })

  it('survives the script answer of the API, parsed and rebuilt', () => {
    const data: StructuredData = {
      reviews: {
        '@context': 'https://schema.org',
        review: [
          {
            '@type': 'Review',
            reviewBody: hostile,
            datePublished: '2025-03-01T10:00:00Z',
            reviewRating: { '@type': 'Rating', ratingValue: 4, bestRating: 5, worstRating: 1 },
            author: { '@type': 'Person', name: hostile.slice(0, 60) },
          },
        ],
      },
    }
    const text = `<script type="application/ld+json" id="vr-jsonld-reviews">${serializeJsonLd(data.reviews)}</script>`
    const parsed = parseStructuredDataScript(text)
    expect(parsed).toEqual(data)
    const node = fromStructuredData(parsed, { url, product: { name: hostile }, logger })
    expect(node?.review).toEqual([expect.objectContaining({ reviewBody: hostile })])
    expectSafeRoundTrip(node)
  })

  it('survives a merge with the page’s own Product node', () => {
    const reviewsNode = buildProductJsonLd({ url, reviews: [review], logger })
    if (reviewsNode === null) throw new Error('expected a node')
    const merged = mergeJsonLd(
      [{ '@context': 'https://schema.org', '@type': 'Product', '@id': url, name: hostile }],
      reviewsNode,
    )
    expect(merged).toEqual([{ ...reviewsNode, name: hostile }])
    expectSafeRoundTrip(merged)
  })
})

describe('hostile content where a date or name is expected', () => {
  it('leaves out a review whose date is hostile text', () => {
    const node = buildProductJsonLd({
      url,
      reviews: [
        {
          author_firstname: 'Ana',
          author_lastname: '',
          is_personal_data_disclosed: true,
          publish_date: HOSTILE.closingScript ?? '',
          review_content: 'x',
          review_rate: 4,
        },
      ],
      logger: { warn: vi.fn() },
    })
    expect(node).toBeNull()
  })

  it('leaves out a review whose author name is a very long string', () => {
    const node = buildProductJsonLd({
      url,
      reviews: [
        {
          author_firstname: HOSTILE.long ?? '',
          author_lastname: '',
          is_personal_data_disclosed: true,
          publish_date: '2025-03-01T10:00:00Z',
          review_content: 'x',
          review_rate: 4,
        },
      ],
      logger: { warn: vi.fn() },
    })
    expect(node).toBeNull()
  })
})
