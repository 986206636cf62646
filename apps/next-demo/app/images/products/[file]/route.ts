import { PRODUCTS } from '@/lib/catalogue'
import { productImageSvg } from '@/lib/product-image'

// The product pictures the pages and their JSON-LD `image` point at, written at build time (an unknown
// file is a 404).

const fileOf = (id: string) => `${id.toLowerCase()}.svg`

export function generateStaticParams() {
  return PRODUCTS.map((product) => ({ file: fileOf(product.id) }))
}

export async function GET(_request: Request, context: { params: Promise<{ file: string }> }) {
  const { file } = await context.params
  const product = PRODUCTS.find((candidate) => fileOf(candidate.id) === file)
  if (product === undefined) return new Response('Not found', { status: 404 })
  return new Response(productImageSvg(product), {
    headers: { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'public, max-age=86400' },
  })
}
