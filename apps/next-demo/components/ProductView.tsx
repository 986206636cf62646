import { ProductReviews } from '@verified-reviews/next'
import Link from 'next/link'
import { SiteHeader } from '@/components/SiteHeader'
import type { Product } from '@/lib/catalogue'
import { type Locale, text } from '@/lib/i18n'
import { REVIEWS_ENDPOINT, SITE_URL } from '@/lib/site'

/** A product page; with `searchParams`, it shows the view of the reviews they name (a plain link's target). */
export function ProductView(props: {
  locale: Locale
  product: Product
  searchParams?: Promise<Record<string, string | string[] | undefined>>
}) {
  const { locale, product } = props
  const path = `/products/${product.id}`
  return (
    <>
      <SiteHeader locale={locale} path={path} />
      <main>
        <p>
          <Link href={`/${locale}`}>{text(locale, 'backToProducts')}</Link>
        </p>
        <h1>{product.name}</h1>
        <p className="product-brand">{text(locale, 'by', { brand: product.brand })}</p>
        <ProductReviews
          productId={product.id}
          locale={locale}
          endpoint={REVIEWS_ENDPOINT}
          searchParams={props.searchParams}
          url={`${SITE_URL}/${locale}${path}`}
          product={{
            name: product.name,
            sku: product.sku,
            gtin13: product.gtin13,
            brand: { '@type': 'Brand', name: product.brand },
          }}
        />
      </main>
    </>
  )
}
