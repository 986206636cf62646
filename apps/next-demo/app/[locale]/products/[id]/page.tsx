import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { ProductView } from '@/components/ProductView'
import { findProduct, PRODUCTS } from '@/lib/catalogue'
import { isLocale } from '@/lib/i18n'
import { SITE_URL } from '@/lib/site'

// Prerendered for every product at `next build` (from one shared prefetch); its reviews are a
// 'use cache' component tagged reviewTags.product(id), refreshed when the revalidate route revalidates
// the product. Another id is rendered on request, and finds no product.
export function generateStaticParams() {
  return PRODUCTS.map((product) => ({ id: product.id }))
}

interface Params {
  params: Promise<{ locale: string; id: string }>
}

export async function generateMetadata(props: Params): Promise<Metadata> {
  const { locale, id } = await props.params
  const product = findProduct(id)
  return product === undefined
    ? {}
    : { title: product.name, alternates: { canonical: `${SITE_URL}/${locale}/products/${product.id}` } }
}

export default async function ProductPage(props: Params) {
  const { locale, id } = await props.params
  const product = findProduct(id)
  if (!isLocale(locale) || product === undefined) notFound()
  return <ProductView locale={locale} product={product} />
}
