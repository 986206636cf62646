import type { RequestOptions, Values, VerifiedReviewsClient } from '@verified-reviews/core'
import { isContinuationCursor, listProductReviews } from '@verified-reviews/core/endpoint'
import { reviewTags } from '../tags.ts'

// Next.js keeps at most 128 tags per fetch; a bulk call over more products is tagged `all` alone.
const MAX_TAGS = 120

type Params = Record<string, unknown> | undefined

function values(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',').filter((item) => item !== '')
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}

function productTags(ids: unknown): string[] {
  const list = values(ids as Values | undefined)
  return list.length > MAX_TAGS ? [] : list.map(reviewTags.product)
}

function shopTags(keys: unknown): string[] {
  if (keys === undefined) return [reviewTags.brand()]
  const list = values(keys as Values)
  if (list.length > MAX_TAGS) return [reviewTags.brand()]
  return list.map(reviewTags.shop)
}

/** The tags of each read operation, from its parameters: what a revalidation of those tags must refresh. */
const TAGGERS: Record<string, (params: Params) => string[]> = {
  'products.list': (params) => productTags(params?.product_variation_id),
  'products.reviews.list': (params) => productTags(params?.product_variation_id),
  'products.ratings.list': (params) =>
    params?.type === 'product_variation_id' ? productTags(params.value) : [],
  'products.structuredData.get': (params) => productTags(params?.product_variation_id),
  'brands.list': (params) => shopTags(params?.shop_key),
  'brands.reviews.list': (params) => shopTags(params?.shop_key),
}

// The objects on the way to a tagged operation (`products`, `products.reviews`…), which get a view too.
const BRANCHES = new Set(
  Object.keys(TAGGERS).flatMap((path) => {
    const parts = path.split('.')
    return parts.slice(0, -1).map((_, index) => parts.slice(0, index + 1).join('.'))
  }),
)

function withTags(options: RequestOptions | undefined, tags: string[], revalidate: number): RequestOptions {
  const given = (options?.fetchOptions?.next ?? {}) as { tags?: string[]; revalidate?: number | false }
  return {
    ...options,
    fetchOptions: {
      ...options?.fetchOptions,
      next: {
        ...given,
        revalidate: given.revalidate ?? revalidate,
        tags: [...new Set([...(given.tags ?? []), ...tags, reviewTags.all()])],
      },
    },
  }
}

/**
 * A view of `client` whose read calls carry Next.js fetch options: `next.revalidate` and the tags of
 * the products or shops they read (`reviewTags`), so that a page is tagged by what it shows. Calls are
 * made on the client itself, which keeps one token and one rate budget for every view.
 */
export function taggedClient(client: VerifiedReviewsClient, revalidate: number): VerifiedReviewsClient {
  const views = new WeakMap<object, object>()
  const view = <T extends object>(target: T, path: string): T => {
    const known = views.get(target)
    if (known !== undefined) return known as T
    const proxy = new Proxy(target, {
      get(object, key) {
        // The target as receiver: the client's classes keep their state in private fields.
        const value: unknown = Reflect.get(object, key, object)
        if (typeof key !== 'string') return value
        const here = path === '' ? key : `${path}.${key}`
        if (typeof value === 'function') {
          const tagger = TAGGERS[here]
          if (tagger === undefined) return value.bind(object)
          return (params: Params, options?: RequestOptions) => {
            const tagged = withTags(options, tagger(params), revalidate)
            // A page first shown from build data hands on a continuation cursor, which the API does not know.
            if (
              here === 'products.reviews.list' &&
              isContinuationCursor(params?.cursor as string | undefined)
            ) {
              return listProductReviews(
                (list, listOptions) => value.call(object, list, listOptions),
                params ?? {},
                tagged,
              )
            }
            return value.call(object, params, tagged)
          }
        }
        return typeof value === 'object' && value !== null && BRANCHES.has(here) ? view(value, here) : value
      },
    })
    views.set(target, proxy)
    return proxy
  }
  return view(client, '')
}
