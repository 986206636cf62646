import { ProductReviews } from '@verified-reviews/next'
import Link from 'next/link'
import { SiteHeader } from '@/components/SiteHeader'
import { type Product, productFacts } from '@/lib/catalogue'
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
  const url = `${SITE_URL}/${locale}${path}`
  const price = new Intl.NumberFormat(locale, { style: 'currency', currency: product.currency }).format(
    product.price,
  )
  return (
    <>
      <SiteHeader locale={locale} path={path} />
      <main>
        <p>
          <Link href={`/${locale}`}>{text(locale, 'backToProducts')}</Link>
        </p>
        <div className="product-overview">
          {/* biome-ignore lint/performance/noImgElement: a static SVG needs no image optimisation */}
          <img className="product-image" src={product.image} alt={product.name} width={320} height={320} />
          <div>
            <h1>{product.name}</h1>
            <p className="product-brand">{text(locale, 'by', { brand: product.brand })}</p>
            <p className="product-description">{product.description}</p>
            <p className="product-offer">
              <span className="product-price">{price}</span>{' '}
              <span className="product-availability">
                {text(locale, product.availability === 'InStock' ? 'inStock' : 'outOfStock')}
              </span>
            </p>
          </div>
        </div>
        {/* The shop's own facts (price, availability, image, description): the review markup is merged into them. */}
        <ProductReviews
          productId={product.id}
          locale={locale}
          endpoint={REVIEWS_ENDPOINT}
          searchParams={props.searchParams}
          url={url}
          product={productFacts(product, url)}
        />
      </main>
    </>
  )
}
