import { getCollection } from 'astro:content'
import type { APIRoute, GetStaticPaths } from 'astro'
import type { Product } from '../../../lib/catalogue.ts'
import { productImageSvg } from '../../../lib/product-image.ts'

// The product pictures the pages and their JSON-LD `image` point at (`/images/products/sku-001.svg`).
export const getStaticPaths = (async () => {
  const products: { data: Product }[] = await getCollection('products')
  return products.map(({ data }) => ({ params: { id: data.id.toLowerCase() }, props: { product: data } }))
}) satisfies GetStaticPaths

export const GET: APIRoute<{ product: Product }> = ({ props }) =>
  new Response(productImageSvg(props.product), {
    headers: { 'content-type': 'image/svg+xml; charset=utf-8' },
  })
