import { ProductRating, reviewTags } from '@verified-reviews/next'
import type { Metadata } from 'next'
import { cacheLife, cacheTag } from 'next/cache'
import Link from 'next/link'
import { notFound } from 'next/navigation'
import { SiteHeader } from '@/components/SiteHeader'
import { PRODUCTS } from '@/lib/catalogue'
import { isLocale, type Locale, text } from '@/lib/i18n'

export async function generateMetadata(props: { params: Promise<{ locale: string }> }): Promise<Metadata> {
  const { locale } = await props.params
  return isLocale(locale) ? { title: `${text(locale, 'home')} · ${text(locale, 'shop')}` } : {}
}

/**
 * The product cards, cached ('use cache') and tagged with every product shown: the revalidate route
 * refreshes the grid when one of them has new reviews, or it is refreshed after hours at most.
 */
async function ProductGrid({ locale }: { locale: Locale }) {
  'use cache'
  cacheLife('hours')
  cacheTag(...PRODUCTS.map((product) => reviewTags.product(product.id)))
  return (
    <ul className="product-grid">
      {PRODUCTS.map((product) => (
        <li key={product.id} className="product-card">
          <h2>
            <Link href={`/${locale}/products/${product.id}`}>{product.name}</Link>
          </h2>
          <p className="product-brand">{text(locale, 'by', { brand: product.brand })}</p>
          {/* From the build prefetch during the build; later, every rating of the grid in one bulk call. */}
          <ProductRating productId={product.id} locale={locale} />
        </li>
      ))}
    </ul>
  )
}

export default async function HomePage(props: { params: Promise<{ locale: string }> }) {
  const { locale } = await props.params
  if (!isLocale(locale)) notFound()
  return (
    <>
      <SiteHeader locale={locale} path="" />
      <main>
        <h1>{text(locale, 'homeTitle')}</h1>
        <ProductGrid locale={locale} />
      </main>
    </>
  )
}
