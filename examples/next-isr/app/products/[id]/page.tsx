import { notFound } from 'next/navigation'
import { Reviews } from '@/components/Reviews'
import { findProduct, PRODUCTS } from '@/lib/catalogue'

// Regenerated at most hourly, or as soon as the revalidate route revalidates the product.
export const revalidate = 3600
// Keeps the page static: the package sends its token requests and the build prefetch with
// cache: 'no-store', which Next.js would otherwise take as a sign to render the page on every request.
export const dynamic = 'force-static'

// Prerendered at `next build` for every product of the catalogue.
export function generateStaticParams() {
  return PRODUCTS.map((product) => ({ id: product.id }))
}

export default async function ProductPage(props: { params: Promise<{ id: string }> }) {
  const { id } = await props.params
  const product = findProduct(id)
  if (product === undefined) notFound()
  return (
    <main>
      <h1>{product.name}</h1>
      <p>{product.description}</p>
      <Reviews product={product} />
    </main>
  )
}
