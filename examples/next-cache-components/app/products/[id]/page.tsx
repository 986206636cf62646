import { notFound } from 'next/navigation'
import { Reviews } from '@/components/Reviews'
import { findProduct, PRODUCTS } from '@/lib/catalogue'

// Prerendered at `next build` for every product of the catalogue.
export function generateStaticParams() {
  return PRODUCTS.map((product) => ({ id: product.id }))
}

// The whole page depends on its product, read from `params` at the top, so that each product page is
// prerendered whole: its reviews in the HTML, readable without JavaScript. With partial prefetching
// Next.js wants one shell for every product link, and `next dev` logs "encountered URL data during
// prerendering or a navigation" for `await props.params` above any <Suspense>, listed ids too:
// `instant = false` says the page waits for its product on purpose. (Under <Suspense>, the prerendered
// HTML would hold the product as a hidden block that a script shows.)
export const instant = false

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
