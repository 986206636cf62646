import { ProductRating } from '@verified-reviews/next'
import type { Metadata } from 'next'
import Link from 'next/link'
import { notFound } from 'next/navigation'
import { SiteHeader } from '@/components/SiteHeader'
import { PRODUCTS } from '@/lib/catalogue'
import { isLocale, text } from '@/lib/i18n'

// Ratings are read through the Next.js data cache; the page regenerates at most hourly, or as soon as
// the revalidate route revalidates one of its products.
export const revalidate = 3600

export async function generateMetadata(props: { params: Promise<{ locale: string }> }): Promise<Metadata> {
  const { locale } = await props.params
  return isLocale(locale) ? { title: `${text(locale, 'home')} · ${text(locale, 'shop')}` } : {}
}

export default async function HomePage(props: { params: Promise<{ locale: string }> }) {
  const { locale } = await props.params
  if (!isLocale(locale)) notFound()
  return (
    <>
      <SiteHeader locale={locale} path="" />
      <main>
        <h1>{text(locale, 'homeTitle')}</h1>
        <ul className="product-grid">
          {PRODUCTS.map((product) => (
            <li key={product.id} className="product-card">
              <h2>
                <Link href={`/${locale}/products/${product.id}`}>{product.name}</Link>
              </h2>
              <p className="product-brand">{text(locale, 'by', { brand: product.brand })}</p>
              {/* Every rating of the page goes out in one bulk call (none during the build). */}
              <ProductRating productId={product.id} locale={locale} />
            </li>
          ))}
        </ul>
      </main>
    </>
  )
}
