import { describe, expect, it } from 'vitest'
import { VerifiedReviewsError } from '../base/errors.ts'
import { serializeJsonLd } from './serialize.ts'
import { StructuredDataError } from './structured-data-error.ts'
import { parseStructuredDataScript } from './structured-data-script.ts'

const url = 'https://shop.example/products/kettle'

const ratings = {
  '@context': 'https://schema.org',
  aggregateRating: {
    '@type': 'AggregateRating',
    ratingValue: 4.5,
    reviewCount: 2,
    bestRating: 5,
    worstRating: 1,
    itemReviewed: { '@id': url },
  },
}

const reviews = {
  '@context': 'https://schema.org',
  review: [
    {
      '@type': 'Review',
      reviewBody: '</script><script>alert(1)</script>',
      datePublished: '2025-03-02T10:00:00Z',
      reviewRating: { '@type': 'Rating', ratingValue: 5, bestRating: 5, worstRating: 1 },
      author: { '@type': 'Person', name: 'Marie D.' },
    },
  ],
}

const summary = {
  '@context': 'https://schema.org',
  review: {
    '@type': 'Review',
    reviewBody: 'Customers like it.',
    datePublished: '2025-04-01T00:00:00Z',
    author: { '@type': 'Organization', name: 'Shop Inc.' },
  },
}

const script = (id: string, value: unknown) =>
  `<script type="application/ld+json" id="${id}">${serializeJsonLd(value)}</script>`

const answer = [
  script('vr-jsonld-aggregaterating', ratings),
  script('vr-jsonld-reviews', reviews),
  script('vr-jsonld-reviewsummary', summary),
].join('\n')

describe('parseStructuredDataScript', () => {
  it('gives the blocks of the script answer in the form of the JSON answer', () => {
    expect(parseStructuredDataScript(answer)).toEqual({ ratings, reviews, reviewSummary: summary })
  })

  it('recognizes the blocks by the end of their id, whatever the prefix', () => {
    const parsed = parseStructuredDataScript(script('svc-jsonld-aggregaterating', ratings))
    expect(parsed).toEqual({ ratings })
  })

  it('recognizes a block without id by its content', () => {
    const text = `<script type="application/ld+json">${JSON.stringify(summary)}</script>`
    expect(parseStructuredDataScript(text)).toEqual({ reviewSummary: summary })
  })

  it('gives no block for an empty answer', () => {
    expect(parseStructuredDataScript('  \n')).toEqual({})
  })

  it('throws naming the block whose JSON is invalid', () => {
    const text = `${script('vr-jsonld-aggregaterating', ratings)}<script type="application/ld+json" id="vr-jsonld-reviews">{"review": [</script>`
    const call = () => parseStructuredDataScript(text)
    expect(call).toThrow(StructuredDataError)
    expect(call).toThrow(expect.objectContaining({ block: 'vr-jsonld-reviews' }))
  })

  it('throws naming the script by position when it has no id', () => {
    const text = `${script('a-jsonld-reviews', reviews)}<script type="application/ld+json">nope</script>`
    expect(() => parseStructuredDataScript(text)).toThrow(expect.objectContaining({ block: 'script #2' }))
  })

  it('throws for a block of the wrong shape', () => {
    const text = script('vr-jsonld-reviews', { review: 'not a list' })
    expect(() => parseStructuredDataScript(text)).toThrow('vr-jsonld-reviews: review must be an array')
  })

  it('throws for a script that is not JSON-LD', () => {
    const text = '<script id="vr-jsonld-reviews">alert(1)</script>'
    expect(() => parseStructuredDataScript(text)).toThrow(/not a script of type application\/ld\+json/)
  })

  it('throws for text outside the script elements', () => {
    expect(() => parseStructuredDataScript(`${answer}<img src=x onerror=alert(1)>`)).toThrow(
      StructuredDataError,
    )
  })

  it('throws an error rooted in VerifiedReviewsError', () => {
    expect(() => parseStructuredDataScript('<p>')).toThrow(VerifiedReviewsError)
  })

  it('throws for a block given twice', () => {
    const text = script('vr-jsonld-reviews', reviews) + script('vr-jsonld-reviews', reviews)
    expect(() => parseStructuredDataScript(text)).toThrow(/second reviews block/)
  })
})
