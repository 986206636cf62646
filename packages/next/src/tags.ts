const PREFIX = 'verified-reviews'
// Next.js ignores tags longer than 256 characters; longer identifiers keep a prefix and a digest.
const MAX_TAG = 256

/** FNV-1a, 32 bits: a short, stable digest of an identifier too long for a tag. */
function digest(text: string): string {
  let hash = 0x811c9dc5
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash.toString(16).padStart(8, '0')
}

function tag(kind: string, id: string): string {
  const full = `${PREFIX}:${kind}:${id}`
  if (full.length <= MAX_TAG) return full
  const head = `${PREFIX}:${kind}:`
  return `${head}${id.slice(0, MAX_TAG - head.length - 9)}~${digest(id)}`
}

/**
 * The cache tags of review data, named in one place: the components tag their fetches with them,
 * the revalidate route revalidates them, and an app's own `'use cache'` functions pass them to
 * `cacheTag`.
 *
 * @example
 * revalidateTag(reviewTags.product('SKU-001'), 'max') // the pages and island answers of one product
 */
export const reviewTags = Object.freeze({
  /** Reviews, rating and summary of one product (`product_variation_id`). */
  product: (productId: string): string => tag('product', productId),
  /** The brand's own reviews and statistics (`shop_key` `''`), and the brand reviews page. */
  brand: (): string => `${PREFIX}:brand`,
  /** Reviews and statistics of one shop (`shop_key`). */
  shop: (shopKey: string): string => tag('shop', shopKey),
  /** Every piece of review data: revalidating it refreshes everything. */
  all: (): string => PREFIX,
})
