import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { productReview } from '../../../../../test/fixtures/reviews.ts'
import { keptReview } from './kept-review.ts'
import { loadStoredReviewCodec, STORED_REVIEW_DICTIONARY_V1, STORED_REVIEW_VERSION } from './stored-review.ts'

const codec = await loadStoredReviewCodec()
const encoder = new TextEncoder()

describe('the stored form of a review', () => {
  it('gives back the very text encoded, for texts in every script, escapes and control characters', () => {
    const texts = [
      'Très bien, merci ! « Parfait » — 5/5',
      'Отлично, точно това, което търсех. Εξαιρετικό! Mükemmel, tam aradığım şey.',
      '很好，非常满意。とても良い。정말 좋아요. ممتاز جدا. מצוין',
      'Emoji 👍🏽👨‍👩‍👧 and a flag 🇫🇷, a combining é (e\u0301), a BOM \uFEFF, a zero-width joiner \u200D',
      'Line and paragraph separators \u2028 \u2029, a NUL \u0000, a tab \t, quotes " and \\ backslashes',
      'A lone surrogate \uD800 and \uDFFF, which JSON.stringify escapes',
      'A long text past the window: '.concat('abcdefghij'.repeat(2000), '✓'.repeat(3000)),
    ]
    for (const text of texts) {
      const review = productReview({
        review_content: text,
        translated_review: { en: text, fr: `${text} (fr)` },
      })
      const json = JSON.stringify(review)
      const stored = codec.encode(json)
      expect(stored[0]).toBe(STORED_REVIEW_VERSION)
      const back = codec.decode<typeof review>(stored)
      expect(back).toEqual(review)
      expect(JSON.stringify(back)).toBe(json)
    }
  })

  it('gives back the API’s own text, its spaces and key order, from its bytes', () => {
    const text = '{ "review_content" : "Très bien 👍",\n  "review_id": "a", "product_variation_id": "P1" }'
    const back = codec.decode<Record<string, unknown>>(codec.encode(encoder.encode(text)))
    expect(back).toEqual(JSON.parse(text))
    expect(Object.keys(back)).toEqual(['review_content', 'review_id', 'product_variation_id'])
  })

  it('keeps a review in a fraction of its JSON’s bytes', () => {
    const review = keptReview(productReview(), ['en', 'fr', 'de'])
    const json = JSON.stringify(review)
    expect(codec.encode(json).length).toBeLessThan(encoder.encode(json).length * 0.7)
  })

  it('reads the JSON text of earlier versions, as a string and as its bytes', () => {
    const review = productReview({ review_content: 'Très bien' })
    const json = JSON.stringify(review)
    expect(codec.decode(json)).toEqual(review)
    expect(codec.decode(encoder.encode(json))).toEqual(review)
    expect(codec.decode(encoder.encode(` \n${json}`))).toEqual(review)
  })

  it('refuses a form of another version', () => {
    const stored = codec.encode(JSON.stringify(productReview()))
    stored[0] = 2
    expect(() => codec.decode(stored)).toThrow(/version byte 2/)
    expect(() => codec.decode(new Uint8Array())).toThrow(/version byte none/)
  })

  it('keeps the dictionary of version 1 as it was when reviews were first stored with it', () => {
    // Reviews stored in version 1 need this very dictionary to be read: another one is another version.
    expect(createHash('sha256').update(STORED_REVIEW_DICTIONARY_V1).digest('hex')).toBe(
      '5e2b0be7e3078c4fd18e3da38bcbf1b99e4dfc15aa8a98d05101b85f1f694b76',
    )
  })
})
