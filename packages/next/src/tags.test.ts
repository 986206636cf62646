import { describe, expect, it } from 'vitest'
import { reviewTags } from './tags.ts'

describe('reviewTags', () => {
  it('names a product, a shop, the brand and everything under one prefix', () => {
    expect(reviewTags.product('SKU-001')).toBe('verified-reviews:product:SKU-001')
    expect(reviewTags.shop('shop-paris')).toBe('verified-reviews:shop:shop-paris')
    expect(reviewTags.brand()).toBe('verified-reviews:brand')
    expect(reviewTags.all()).toBe('verified-reviews')
  })

  it('keeps the tag of a very long identifier within the 256 characters Next.js accepts', () => {
    const tag = reviewTags.product('A'.repeat(400))
    expect(tag.length).toBeLessThanOrEqual(256)
    expect(tag.startsWith('verified-reviews:product:AAAA')).toBe(true)
  })

  it('gives two long identifiers that share their beginning two tags', () => {
    const head = 'B'.repeat(300)
    expect(reviewTags.product(`${head}1`)).not.toBe(reviewTags.product(`${head}2`))
  })
})
