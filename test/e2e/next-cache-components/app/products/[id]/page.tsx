import { ProductReviews, reviewTags } from '@verified-reviews/next'
import { getBuildData } from '@verified-reviews/next/advanced'
import { cacheLife, cacheTag } from 'next/cache'

// The README's Cache Components example: plain values in, the client stays inside the component.
async function Reviews({ id, locale }: { id: string; locale: string }) {
  'use cache'
  cacheLife('hours')
  cacheTag(reviewTags.product(id))
  return (
    <ProductReviews
      productId={id}
      locale={locale}
      endpoint="/api/reviews"
      url={`https://shop.example/products/${id}`}
    />
  )
}

export async function generateStaticParams() {
  const data = await getBuildData()
  return (data?.productIds ?? []).map((id) => ({ id }))
}

export default async function ProductPage(props: { params: Promise<{ id: string }> }) {
  const { id } = await props.params
  return (
    <main>
      <h1>{id}</h1>
      <Reviews id={id} locale="en" />
    </main>
  )
}
