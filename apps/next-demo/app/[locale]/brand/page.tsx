import { BrandReviews } from '@verified-reviews/next'
import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { SiteHeader } from '@/components/SiteHeader'
import { findShop, SHOPS } from '@/lib/catalogue'
import { isLocale, text } from '@/lib/i18n'

interface Props {
  params: Promise<{ locale: string }>
  searchParams: Promise<Record<string, string | string[] | undefined>>
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { locale } = await props.params
  return isLocale(locale) ? { title: `${text(locale, 'brand')} · ${text(locale, 'shop')}` } : {}
}

// Brand and shop reviews carry no star markup (Google treats them as self-serving), so this page needs no
// static HTML for crawlers: it reads the shop filter from the URL and renders per request, with the API
// calls cached and tagged reviewTags.brand() / reviewTags.shop(key).
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
        <BrandReviews
          key={shop?.key ?? ''}
          shopKey={shop?.key}
          shopName={shop?.name}
          searchParams={query}
          locale={locale}
        />
      </main>
    </>
  )
}
