import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import { LANGUAGES, type ProductReview } from '../../types/published.ts'
import { keptReview } from './kept-review.ts'
import { loadStoredReviewCodec } from './stored-review.ts'

const sb = sandboxForFile({ seed: 1 })

describe('the stored form of the sandbox’s reviews', () => {
  it('gives back every seeded review exactly, whole and kept, in a fraction of its JSON', async () => {
    const codec = await loadStoredReviewCodec()
    const reviews: ProductReview[] = []
    for await (const review of sb.client().products.reviews.list({ limit: 200 })) reviews.push(review)
    expect(reviews).toHaveLength(3000)
    const forms = {
      whole: (review: ProductReview) => review as object,
      kept: (review: ProductReview) => keptReview(review, LANGUAGES),
      'kept in en, fr, de': (review: ProductReview) => keptReview(review, ['en', 'fr', 'de']),
    }
    for (const [form, keep] of Object.entries(forms)) {
      let json = 0
      let stored = 0
      for (const review of reviews) {
        const text = JSON.stringify(keep(review))
        const encoded = codec.encode(text)
        const back = codec.decode(encoded)
        expect(JSON.stringify(back), `${form} ${review.review_id}`).toBe(text)
        json += Buffer.byteLength(text)
        stored += encoded.length
      }
      expect(stored, form).toBeLessThan(json * 0.6)
    }
  })
})
