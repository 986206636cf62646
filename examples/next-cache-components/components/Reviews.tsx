import { ProductReviews, type ReviewViewParams, reviewTags } from '@verified-reviews/next'
import { cacheLife, cacheTag } from 'next/cache'
import { type Product, SITE_URL } from '@/lib/catalogue'

/**
 * A product's rating, reviews and JSON-LD, cached until the revalidate route revalidates the product's
 * tag, or for hours at most. Plain values in: the arguments are the cache key. `view` is the checked
 * view of app/products/[id]/reviews (never raw search params).
 */
export async function Reviews({ product, view }: { product: Product; view?: ReviewViewParams }) {
  'use cache'
  cacheLife('hours')
  cacheTag(reviewTags.product(product.id))
  const url = `${SITE_URL}/products/${product.id}`
  return (
    <ProductReviews
      productId={product.id}
      locale="en"
      endpoint="/api/reviews"
      searchParams={view}
      url={url}
      product={{
        name: product.name,
        sku: product.id,
        description: product.description,
        offers: { '@type': 'Offer', price: product.price, priceCurrency: 'EUR', url },
      }}
    />
  )
}
