import { productReviewView } from '@verified-reviews/next'
import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { Reviews } from '@/components/Reviews'
import { findProduct, SITE_URL } from '@/lib/catalogue'

// The product page showing another view of its reviews (a plain link's vr_cursor, vr_sort or vr_rate;
// next.config.ts rewrites those requests here). It reads the search params, so it renders on request.

interface Props {
  params: Promise<{ id: string }>
  searchParams: Promise<Record<string, string | string[] | undefined>>
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { id } = await props.params
  return { alternates: { canonical: `${SITE_URL}/products/${id}` }, robots: { index: false } }
}

export default async function ProductReviewsPage(props: Props) {
  const { id } = await props.params
  const product = findProduct(id)
  if (product === undefined) notFound()
  // Parsed and checked: junk parameters and forged cursors give the first page.
  const view = await productReviewView(product.id, props.searchParams)
  return (
    <main>
      <h1>{product.name}</h1>
      <p>{product.description}</p>
      <Reviews product={product} view={view} />
    </main>
  )
}
