import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { ProductView } from '@/components/ProductView'
import { findProduct, PRODUCTS } from '@/lib/catalogue'
import { isLocale } from '@/lib/i18n'
import { SITE_URL } from '@/lib/site'

// ISR: built for every product at `next build` (from one shared prefetch), regenerated at most hourly or
// when the revalidate route revalidates `reviewTags.product(id)`.
export const revalidate = 3600
export const dynamicParams = false

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
