import { ProductReviews, type ReviewViewParams, reviewTags } from '@verified-reviews/next'
import { cacheLife, cacheTag } from 'next/cache'
import Link from 'next/link'
import { SiteHeader } from '@/components/SiteHeader'
import { type Product, productFacts } from '@/lib/catalogue'
import { type Locale, text } from '@/lib/i18n'
import { REVIEWS_ENDPOINT, SITE_URL } from '@/lib/site'

/**
 * A product's first page of reviews, cached ('use cache') until the revalidate route revalidates the
 * product's tag, or for hours at most. Takes plain values: the arguments are the cache key. During
 * `next build` the reviews come from the build prefetch, shared by every page; after it, from the
 * server's replica.
 */
async function CachedProductReviews(props: {
  locale: Locale
  product: Product
  url: string
  view?: ReviewViewParams
}) {
  'use cache'
  cacheLife('hours')
  cacheTag(reviewTags.product(props.product.id))
  return (
    <ProductReviews
      productId={props.product.id}
      locale={props.locale}
      endpoint={REVIEWS_ENDPOINT}
      searchParams={props.view}
      url={props.url}
      // The shop's own facts (price, availability, image, description): the review markup is merged into them.
      product={productFacts(props.product, props.url)}
    />
  )
}

/** A product page; with `view`, it shows the view of the reviews it names (a plain link's target). */
export function ProductView(props: { locale: Locale; product: Product; view?: ReviewViewParams }) {
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
        {props.view === undefined || Object.keys(props.view).length === 0 ? (
          <CachedProductReviews locale={locale} product={product} url={url} view={props.view} />
        ) : (
          // Any other view (an order, rates, a page) renders on request from the server's replica, one
          // indexed read and no API call: caching each of the thousands of views would only fill the cache.
          <ProductReviews
            productId={product.id}
            locale={locale}
            endpoint={REVIEWS_ENDPOINT}
            searchParams={props.view}
            url={url}
            product={productFacts(product, url)}
          />
        )}
      </main>
    </>
  )
}
