import type { Operation, OperationParams } from '@verified-reviews/core'
import { describe, expectTypeOf, it } from 'vitest'
import type { TAGGERS, Taggers } from './tagged-client.ts'

describe('Taggers', () => {
  it('tags only operations core has: a renamed or removed one does not compile', () => {
    const renamed: Taggers = {
      // @ts-expect-error: `products.reviews.lists` is no operation of core
      'products.reviews.lists': () => [],
    }
    expectTypeOf(renamed).toEqualTypeOf<Taggers>()
    expectTypeOf<keyof typeof TAGGERS>().toExtend<Operation>()
  })

  it("gives each tagger its operation's parameters", () => {
    const taggers: Taggers = {
      'products.ratings.list': (params) => {
        expectTypeOf(params).toEqualTypeOf<OperationParams['products.ratings.list']>()
        return []
      },
      // @ts-expect-error: brand reads have no product_variation_id
      'brands.list': (params) => [String(params.product_variation_id)],
    }
    expectTypeOf(taggers).toEqualTypeOf<Taggers>()
  })
})
