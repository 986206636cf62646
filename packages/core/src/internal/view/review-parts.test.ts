import { describe, expect, it } from 'vitest'
import { productReview } from '../../../../../test/fixtures/reviews.ts'
import type { Moderation, ReviewExtra } from '../../types/published.ts'
import { getTextFormatter } from '../i18n/translate.ts'
import {
  DEFAULT_MEDIA_WIDTHS,
  reviewAuthor,
  reviewCriteria,
  reviewDisclosure,
  reviewImages,
  reviewReplies,
  reviewSource,
} from './review-parts.ts'

describe('reviewAuthor', () => {
  it('shows the name the JSON-LD gives the author', () => {
    expect(reviewAuthor(productReview(), getTextFormatter('en'))).toBe('Marie D.')
  })

  it('says anonymous without a first name', () => {
    const text = getTextFormatter('de')
    expect(reviewAuthor(productReview({ author_firstname: ' ' }), text)).toBe(text.t('anonymousAuthor'))
  })
})

describe('reviewDisclosure', () => {
  it('discloses gifted and compensated reviews only', () => {
    expect(reviewDisclosure('gifted')).toBe('gifted')
    expect(reviewDisclosure('compensated')).toBe('compensated')
    expect(reviewDisclosure('spontaneous')).toBeUndefined()
    expect(reviewDisclosure(undefined)).toBeUndefined()
  })
})

describe('reviewCriteria', () => {
  it('keeps named scores and non-blank texts, with their codes', () => {
    const extras = {
      quality: { display_name: 'Quality', label: 'quality', type: 'I1', value: 5 },
      blank: { display_name: 'Note', label: 'note', type: 'S', value: '  ' },
      unnamed: { display_name: '', label: '', type: 'I1', value: 3 },
      other: { display_name: 'Size', label: 'size', type: 'X', value: 'L' },
      nan: { display_name: 'Fit', label: 'fit', type: 'I1', value: Number.NaN },
    } as unknown as Record<string, ReviewExtra>
    expect(reviewCriteria(extras, getTextFormatter('en')).map(({ code }) => code)).toEqual(['quality'])
  })

  it('gives a score as its rating in words in the language asked, a text as written, under its name', () => {
    const extras = {
      quality: { display_name: '', label: 'Qualité', type: 'I1', value: 4.25 },
      use: { display_name: 'Usage', label: 'use', type: 'S', value: 'Thé vert' },
    } as Record<string, ReviewExtra>
    expect(reviewCriteria(extras, getTextFormatter('fr'))).toEqual([
      { code: 'quality', name: 'Qualité', value: '4,3 sur 5' },
      { code: 'use', name: 'Usage', value: 'Thé vert' },
    ])
    expect(reviewCriteria(extras, getTextFormatter('en'))[0]?.value).toBe('4.3 out of 5')
  })
})

describe('reviewImages', () => {
  it('links each image to its largest variant, with the variants a thumbnail can use in srcset', () => {
    // A 96 px thumbnail needs at most 384 px (4 device pixels per CSS pixel): 600 px is enough.
    expect(reviewImages(productReview().medias, DEFAULT_MEDIA_WIDTHS, 96)).toEqual([
      {
        href: 'https://media.example.test/1-large.jpg',
        src: 'https://media.example.test/1-small.jpg',
        srcset: 'https://media.example.test/1-small.jpg 200w, https://media.example.test/1-medium.jpg 600w',
      },
    ])
  })

  it('keeps every variant for a thumbnail that none is wide enough for, and the smallest for a tiny one', () => {
    const [large] = reviewImages(productReview().medias, DEFAULT_MEDIA_WIDTHS, 320)
    expect(large?.srcset).toBe(
      'https://media.example.test/1-small.jpg 200w, https://media.example.test/1-medium.jpg 600w, https://media.example.test/1-large.jpg 1200w',
    )
    const [tiny] = reviewImages(productReview().medias, DEFAULT_MEDIA_WIDTHS, 40)
    expect(tiny?.srcset).toBe('https://media.example.test/1-small.jpg 200w')
  })

  it('leaves out variants that are not http(s) and images without any', () => {
    const medias = [
      { type: 'image', small: 'javascript:alert(1)', medium: 'https://m.test/2.jpg', large: '' },
      { type: 'IMAGE', small: 'data:x', medium: '', large: '' },
      { type: 'VIDEO', small: 'https://m.test/v.jpg', medium: '', large: '' },
    ]
    expect(reviewImages(medias, { small: 1, medium: 2, large: 3 }, 96)).toEqual([
      { href: 'https://m.test/2.jpg', src: 'https://m.test/2.jpg', srcset: 'https://m.test/2.jpg 2w' },
    ])
  })
})

describe('reviewSource', () => {
  it('names the source of a syndicated review, else the host of its URL', () => {
    const review = productReview({
      syndicated_review: true,
      syndicated_review_source_url: 'https://a.test/r/1',
    })
    expect(reviewSource(review)).toEqual({ label: 'a.test', href: 'https://a.test/r/1' })
    expect(reviewSource({ ...review, syndicated_review_source: ' Acme ' })?.label).toBe('Acme')
  })

  it('has an empty label when nothing names the source, and nothing for a review posted here', () => {
    expect(reviewSource(productReview({ syndicated_review: true }))).toEqual({ label: '', href: undefined })
    expect(reviewSource(productReview())).toBeUndefined()
  })
})

describe('reviewReplies', () => {
  it('keeps the replies with a comment', () => {
    const reply: Moderation = {
      comment: 'Merci',
      date: '2025-03-06T09:00:00Z',
      origin: 'Acme',
      origin_type: 'moderator',
    }
    expect(reviewReplies([{ ...reply, comment: ' ' }, reply])).toEqual([reply])
  })
})
