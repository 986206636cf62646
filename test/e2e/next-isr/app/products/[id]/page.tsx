import { ProductReviews } from '@verified-reviews/next'
import { getBuildData } from '@verified-reviews/next/advanced'

// The README's ISR example: regenerated at most hourly, or when the revalidate route revalidates
// reviewTags.product(id). `force-static` keeps the page static although the package sends its token
// requests and the build prefetch with `cache: 'no-store'`.
export const revalidate = 3600
export const dynamic = 'force-static'

export async function generateStaticParams() {
  const data = await getBuildData()
  return (data?.productIds ?? []).map((id) => ({ id }))
}

export default async function ProductPage(props: { params: Promise<{ id: string }> }) {
  const { id } = await props.params
  return (
    <main>
      <h1>{id}</h1>
      <ProductReviews
        productId={id}
        locale="en"
        endpoint="/api/reviews"
        url={`https://shop.example/products/${id}`}
      />
    </main>
  )
}
