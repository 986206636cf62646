import { ProductReviews, productReviewView } from '@verified-reviews/next'

// A view of the product's reviews (a plain link's vr_sort, vr_rate or vr_cursor; next.config.ts rewrites
// those requests here): rendered on request from the server's replica, no API call.
export default async function ProductReviewsPage(props: {
  params: Promise<{ id: string }>
  searchParams: Promise<Record<string, string | string[] | undefined>>
}) {
  const { id } = await props.params
  const view = await productReviewView(id, props.searchParams)
  return (
    <main>
      <h1>{id}</h1>
      <ProductReviews
        productId={id}
        locale="en"
        endpoint="/api/reviews"
        url={`https://shop.example/products/${id}`}
        searchParams={view}
      />
    </main>
  )
}
