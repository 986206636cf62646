import { productReviewView } from '@verified-reviews/next'
import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { ProductView } from '@/components/ProductView'
import { findProduct } from '@/lib/catalogue'
import { isLocale } from '@/lib/i18n'
import { SITE_URL } from '@/lib/site'

// The product page with a view of its reviews (`vr_cursor`, `vr_sort`, `vr_rate`): next.config rewrites
// the static page's plain links here, so they work without JavaScript. It reads the search params, so it
// renders on request, whole (no Suspense fallback a visitor without JavaScript would be left with):
// `instant = false` allows it to block. The first page of reviews is a cached component; any other view
// renders on request from the server's replica (one indexed read, no API call, no cache entry).
export const instant = false

interface Props {
  params: Promise<{ locale: string; id: string }>
  searchParams: Promise<Record<string, string | string[] | undefined>>
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { locale, id } = await props.params
  const product = findProduct(id)
  return product === undefined
    ? {}
    : {
        title: product.name,
        alternates: { canonical: `${SITE_URL}/${locale}/products/${product.id}` },
        robots: { index: false },
      }
}

export default async function ProductReviewsPage(props: Props) {
  const { locale, id } = await props.params
  const product = findProduct(id)
  if (!isLocale(locale) || product === undefined) notFound()
  // Parsed and checked before the cache: junk parameters and forged cursors all give the first page's key.
  const view = await productReviewView(product.id, props.searchParams)
  return <ProductView locale={locale} product={product} view={view} />
}
