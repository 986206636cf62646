import { BrandReviews, brandReviewView, type ReviewViewParams, reviewTags } from '@verified-reviews/next'
import type { Metadata } from 'next'
import { cacheLife, cacheTag } from 'next/cache'
import { notFound } from 'next/navigation'
import { SiteHeader } from '@/components/SiteHeader'
import { findShop, SHOPS } from '@/lib/catalogue'
import { isLocale, type Locale, text } from '@/lib/i18n'

interface Props {
  params: Promise<{ locale: string }>
  searchParams: Promise<Record<string, string | string[] | undefined>>
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { locale } = await props.params
  return isLocale(locale) ? { title: `${text(locale, 'brand')} · ${text(locale, 'shop')}` } : {}
}

/**
 * The first page of the reviews of the brand or of one shop, cached ('use cache') and tagged
 * reviewTags.brand() or reviewTags.shop(key), which the revalidate route revalidates.
 */
async function CachedBrandReviews(props: {
  locale: Locale
  shop: { key: string; name: string } | undefined
  view: ReviewViewParams
}) {
  'use cache'
  cacheLife('hours')
  cacheTag(props.shop === undefined ? reviewTags.brand() : reviewTags.shop(props.shop.key))
  return (
    <BrandReviews
      shopKey={props.shop?.key}
      shopName={props.shop?.name}
      // The shop is kept in every link of the reviews; it is one of SHOPS, checked by findShop.
      searchParams={props.shop === undefined ? props.view : { ...props.view, shop: props.shop.key }}
      locale={props.locale}
    />
  )
}

// Brand and shop reviews carry no star markup (Google treats them as self-serving), so this page needs no
// static HTML for crawlers: it reads the shop filter from the URL and renders on request, whole (no
// Suspense fallback a visitor without JavaScript would be left with): `instant = false` allows it to
// block. The first page of each shop's reviews is a cached component; the brand reviews come from the
// server's replica, which the revalidate route keeps current (the API until its first sync of them).
export const instant = false

export default async function BrandPage(props: Props) {
  const { locale } = await props.params
  if (!isLocale(locale)) notFound()
  const query = await props.searchParams
  const shop = findShop(typeof query.shop === 'string' ? query.shop : undefined)
  // Parsed and checked before the cache: junk parameters and forged cursors all give the first page's key.
  const view = await brandReviewView(shop?.key, query)
  return (
    <>
      <SiteHeader locale={locale} path="/brand" />
      <main>
        <h1>{text(locale, 'brandTitle')}</h1>
        <nav aria-label={text(locale, 'filterShops')} className="shop-filter">
          <ul>
            <li>
              <a href={`/${locale}/brand`} aria-current={shop === undefined ? 'page' : undefined}>
                {text(locale, 'allShops')}
              </a>
            </li>
            {SHOPS.map((item) => (
              <li key={item.key}>
                <a
                  href={`/${locale}/brand?shop=${item.key}`}
                  aria-current={item.key === shop?.key ? 'page' : undefined}
                >
                  {item.name}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {Object.keys(view).length === 0 ? (
          <CachedBrandReviews
            key={shop?.key ?? ''}
            locale={locale}
            shop={shop === undefined ? undefined : { key: shop.key, name: shop.name }}
            view={view}
          />
        ) : (
          // Any other view (an order, rates, a page) renders on request from the server's replica, one
          // indexed read and no API call: caching each of the thousands of views would only fill the cache.
          <BrandReviews
            key={shop?.key ?? ''}
            shopKey={shop?.key}
            shopName={shop?.name}
            searchParams={shop === undefined ? view : { ...view, shop: shop.key }}
            locale={locale}
          />
        )}
      </main>
    </>
  )
}
