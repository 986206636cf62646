import { ProductReviews, type ReviewViewParams } from '@verified-reviews/next'
import { type Product, SITE_URL } from '@/lib/catalogue'

/**
 * A product's rating, reviews and JSON-LD. Its API reads are tagged `reviewTags.product(id)` by the
 * package, so the revalidate route refreshes the pages of a product that got reviews. `view` is the
 * checked view of app/products/[id]/reviews (never raw search params).
 */
export function Reviews({ product, view }: { product: Product; view?: ReviewViewParams }) {
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
