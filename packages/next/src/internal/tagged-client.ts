import type {
  Operation,
  OperationParams,
  RequestOptions,
  RequestOptionsHook,
  Values,
} from '@verified-reviews/core'
import { reviewTags } from '../tags.ts'

// Next.js keeps at most 128 tags per fetch; a bulk call over more products is tagged `all` alone.
const MAX_TAGS = 120

function values(value: Values | undefined): string[] {
  if (typeof value === 'string') return value.split(',').filter((item) => item !== '')
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}

function productTags(ids: Values | undefined): string[] {
  const list = values(ids)
  return list.length > MAX_TAGS ? [] : list.map(reviewTags.product)
}

function shopTags(keys: Values | undefined): string[] {
  if (keys === undefined) return [reviewTags.brand()]
  const list = values(keys)
  if (list.length > MAX_TAGS) return [reviewTags.brand()]
  return list.map(reviewTags.shop)
}

/** The tags of a read operation, from its parameters: what a revalidation of those tags must refresh. */
export type Tagger<O extends Operation> = (params: OperationParams[O]) => string[]

/**
 * The tagged operations, keyed by core's operation names: a key that is no operation of core (one
 * renamed there) does not compile, and each tagger's parameters are the operation's.
 */
export type Taggers = { readonly [O in Operation]?: Tagger<O> }

/** The tags of each read operation; the other operations (writes, legacy and Genesis reads) go untagged. */
export const TAGGERS: Taggers = {
  'products.list': (params) => productTags(params.product_variation_id),
  'products.reviews.list': (params) => productTags(params.product_variation_id),
  'products.ratings.list': (params) =>
    params.type === 'product_variation_id' ? productTags(params.value) : [],
  'products.structuredData.get': (params) => productTags(params.product_variation_id),
  'brands.list': (params) => shopTags(params.shop_key),
  'brands.reviews.list': (params) => shopTags(params.shop_key),
}

/** The tags of one call, or undefined for an operation that is not tagged. */
function tagsOf<O extends Operation>(operation: O, params: OperationParams[O]): string[] | undefined {
  const tagger: Tagger<O> | undefined = TAGGERS[operation]
  return tagger?.(params)
}

interface NextFetchOptions {
  tags?: string[]
  revalidate?: number | false
}

/**
 * The `requestOptions` hook of the client the components and the reviews route read with: each read
 * carries Next.js fetch options, `next.revalidate` and the tags of the products or shops it reads
 * (`reviewTags`, and `reviewTags.all()`), so that a page is tagged by what it shows. The `next` options a
 * caller passes are kept: its tags added to, its `revalidate` preferred.
 */
export function nextTagging(revalidate: number): RequestOptionsHook {
  return ({ operation, params, options }): RequestOptions | undefined => {
    const tags = tagsOf(operation, params)
    if (tags === undefined) return undefined
    const given = (options?.fetchOptions?.next ?? {}) as NextFetchOptions
    return {
      fetchOptions: {
        next: {
          ...given,
          revalidate: given.revalidate ?? revalidate,
          tags: [...new Set([...(given.tags ?? []), ...tags, reviewTags.all()])],
        },
      },
    }
  }
}
