import { ProductReviews } from '@verified-reviews/next'

export const dynamic = 'force-static'

export default function ProductPage() {
  return (
    <main>
      <h1>SKU-001</h1>
      <ProductReviews productId="SKU-001" locale="en" url="https://shop.example/" />
    </main>
  )
}
