import type { BrandRating, BrandReview, ProductReview, ProductSummary } from '@verified-reviews/core'
import { shared, sharedCatalog, sharedClient } from '../../internal/shared.ts'

/**
 * Whether a page is rendered by `astro build`: then one bulk sync and one walk of the product list
 * serve every page; a page rendered on demand (or in `astro dev`) asks for its own product, through
 * the client's five-minute cache.
 */
function fromCatalog(prerendered: boolean): boolean {
  return prerendered && shared().command === 'build'
}

/** A product's summary (rating, criteria, AI summary) and its newest reviews. */
export interface ProductData {
  summary: ProductSummary | undefined
  reviews: ProductReview[]
}

/** The summary and the newest `reviews` reviews of a product. */
export async function productData(
  productId: string,
  reviews: number,
  prerendered: boolean,
): Promise<ProductData> {
  if (fromCatalog(prerendered)) {
    const catalog = sharedCatalog()
    const [summaries, all] = await Promise.all([
      catalog.summaries(),
      reviews > 0 ? catalog.reviews(productId) : [],
    ])
    return { summary: summaries.get(productId), reviews: all.slice(0, reviews) }
  }
  const client = sharedClient()
  const [summaries, page] = await Promise.all([
    client.products.list({ product_variation_id: [productId] }),
    reviews > 0
      ? client.products.reviews.list({
          product_variation_id: [productId],
          limit: Math.min(reviews, 200),
          sort: ['publish_date'],
          desc: ['publish_date'],
        })
      : undefined,
  ])
  return {
    summary: summaries.data.find((summary) => summary.product_variation_id === productId),
    reviews: page?.data ?? [],
  }
}

/** The brand's (or a shop's) statistics and newest reviews. */
export interface BrandData {
  rating: BrandRating | undefined
  reviews: BrandReview[]
}

/** The statistics and the newest `reviews` reviews of the brand (`shopKey` empty) or of one shop. */
export async function brandData(shopKey: string, reviews: number): Promise<BrandData> {
  const client = sharedClient()
  const scope = shopKey === '' ? { linked_to_shop: false } : { shop_key: [shopKey] }
  const [ratings, page] = await Promise.all([
    client.brands.list(scope),
    reviews > 0
      ? client.brands.reviews.list({
          ...scope,
          limit: Math.min(reviews, 200),
          sort: ['publish_date'],
          desc: ['publish_date'],
        })
      : undefined,
  ])
  return {
    rating: ratings.data.find((rating) => rating.shop_key === shopKey),
    reviews: page?.data ?? [],
  }
}
