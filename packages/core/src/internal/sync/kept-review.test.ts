import { describe, expect, it } from 'vitest'
import { productReview } from '../../../../../test/fixtures/reviews.ts'
import { LANGUAGES, type ProductReview } from '../../types/published.ts'
import { publicReview } from '../endpoint/public-review.ts'
import { buildProductJsonLd } from '../jsonld/product.ts'
import { KEPT_FIELDS, keptForm, keptReview, sameKeptForm } from './kept-review.ts'

// Translated into every language (the French original too, as the API does), replied to, syndicated.
const full = productReview({
  syndicated_review: true,
  syndicated_review_source: 'Acme Germany',
  syndicated_review_source_url: 'https://acme.example.de/p/1',
  translated_review: Object.fromEntries(LANGUAGES.map((language) => [language, `Texte (${language})`])),
  moderations: [
    {
      comment: 'Merci pour votre avis !',
      date: '2025-03-06T09:00:00Z',
      origin: 'Acme',
      origin_type: 'moderator',
      translated_comment: Object.fromEntries(LANGUAGES.map((language) => [language, `Merci (${language})`])),
    },
  ],
})

function jsonLd(review: ProductReview, locale: string) {
  return buildProductJsonLd({
    url: 'https://shop.example/p/1',
    product: { name: 'Teapot' },
    reviews: [review],
    locale,
    syndicatedReviews: true,
  })
}

describe('keptReview', () => {
  it('drops the order reference, order id, order date and product codes no page shows', () => {
    const kept = keptReview(full, ['en']) as Record<string, unknown>
    for (const field of [
      'order_reference',
      'order_id',
      'order_date',
      'product_ean',
      'product_upc',
      'product_jan',
      'product_sku',
      'product_mpn',
      'product_brand',
    ]) {
      expect(kept).not.toHaveProperty(field)
    }
    expect(Object.keys(kept).every((field) => (KEPT_FIELDS as readonly string[]).includes(field))).toBe(true)
  })

  it('keeps the translations into the given languages alone, and none into the review’s own language', () => {
    const kept = keptReview(full, ['en', 'fr', 'de'])
    // fr is the review's locale (fr_FR): a French page shows the original.
    expect(kept.translated_review).toEqual({ en: 'Texte (en)', de: 'Texte (de)' })
    expect(kept.moderations).toEqual([
      {
        comment: 'Merci pour votre avis !',
        date: '2025-03-06T09:00:00Z',
        translated_comment: { en: 'Merci (en)', de: 'Merci (de)' },
      },
    ])
  })

  it('builds the same JSON-LD from the kept review as from the API’s, in each language kept', () => {
    const kept = keptReview(full, ['en', 'fr', 'de']) as ProductReview
    // The markup shows the translation, so a kept review without it would differ.
    expect(JSON.stringify(jsonLd(full, 'en'))).toContain('Texte (en)')
    for (const locale of ['en', 'fr', 'de', 'de-CH']) {
      expect(jsonLd(kept, locale)).toEqual(jsonLd(full, locale))
    }
  })

  it('gives the reviews endpoint the same public review, in each language kept', () => {
    const kept = keptReview(full, ['en', 'de']) as ProductReview
    for (const locale of ['en', 'de'] as const) {
      expect(publicReview(kept, locale)).toEqual(publicReview(full, locale))
    }
  })

  it('leaves out what says nothing: empty images, criteria and replies, the source of a review not syndicated', () => {
    const plain = productReview({ medias: [], extras: {}, moderations: [], translated_review: {} })
    expect(keptReview(plain, ['en'])).toEqual({
      review_id: 'rev-1',
      product_variation_id: 'SKU-1',
      product_name: 'Teapot',
      publish_date: '2025-03-05T08:00:00Z',
      review_date: '2025-03-04T10:20:30Z',
      review_rate: 4,
      author_firstname: 'Marie',
      author_lastname: 'Dupont',
      is_personal_data_disclosed: true,
      locale: 'fr_FR',
      review_content: 'Très bon produit, livré vite.',
      is_verified: true,
      incentivization: 'none',
      syndicated_review: false,
    })
  })

  it('keeps a kept review as it is, so that the sync finds an unchanged review equal to the one it holds', () => {
    const kept = keptReview(full, ['en', 'fr', 'de'])
    expect(keptReview(JSON.parse(JSON.stringify(kept)) as ProductReview, ['en', 'fr', 'de'])).toEqual(kept)
  })

  it('keeps every translation a page shows with the 13 languages', () => {
    expect(Object.keys(keptReview(full).translated_review ?? {})).toHaveLength(12)
  })
})

describe('keptForm', () => {
  it('is the same form whatever the order of the languages, and another one with other languages', () => {
    expect(sameKeptForm(keptForm(['fr', 'en']), keptForm(['en', 'fr', 'en']))).toBe(true)
    expect(sameKeptForm(keptForm(['fr', 'en']), keptForm(['en']))).toBe(false)
    expect(sameKeptForm(keptForm(['en']), undefined)).toBe(false)
    expect(sameKeptForm(undefined, undefined)).toBe(true)
  })
})
