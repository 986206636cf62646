import { notFound } from 'next/navigation'
import { Reviews } from '@/components/Reviews'
import { findProduct, PRODUCTS } from '@/lib/catalogue'

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
