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
 * The reviews of the brand or of one shop, for one view (page, order, rates kept), cached ('use cache')
 * and tagged reviewTags.brand() or reviewTags.shop(key), which the revalidate route revalidates.
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
// block. The reviews of each shop and view are a cached component.
export const instant = false

export default async function BrandPage(props: Props) {
  const { locale } = await props.params
  if (!isLocale(locale)) notFound()
  const query = await props.searchParams
  const shop = findShop(typeof query.shop === 'string' ? query.shop : undefined)
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
        <CachedBrandReviews
          key={shop?.key ?? ''}
          locale={locale}
          shop={shop === undefined ? undefined : { key: shop.key, name: shop.name }}
          view={await brandReviewView(shop?.key, query)}
        />
      </main>
    </>
  )
}
