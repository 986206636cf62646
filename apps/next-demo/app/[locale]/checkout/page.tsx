import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { CheckoutForm } from '@/components/CheckoutForm'
import { SiteHeader } from '@/components/SiteHeader'
import { PRODUCTS } from '@/lib/catalogue'
import { isLocale, text } from '@/lib/i18n'
import { MAX_QUANTITY } from '@/lib/orders'
import { placeOrder } from './actions'

export async function generateMetadata(props: { params: Promise<{ locale: string }> }): Promise<Metadata> {
  const { locale } = await props.params
  return isLocale(locale) ? { title: `${text(locale, 'checkoutTitle')} · ${text(locale, 'shop')}` } : {}
}

export default async function CheckoutPage(props: { params: Promise<{ locale: string }> }) {
  const { locale } = await props.params
  if (!isLocale(locale)) notFound()
  return (
    <>
      <SiteHeader locale={locale} path="/checkout" />
      <main>
        <h1>{text(locale, 'checkoutTitle')}</h1>
        <p>{text(locale, 'checkoutIntro')}</p>
        <CheckoutForm
          action={placeOrder}
          locale={locale}
          products={PRODUCTS.map(({ id, name, price }) => ({ id, name, price }))}
          maxQuantity={MAX_QUANTITY}
          texts={{
            product: text(locale, 'product'),
            quantity: text(locale, 'quantity'),
            firstName: text(locale, 'firstName'),
            lastName: text(locale, 'lastName'),
            email: text(locale, 'email'),
            placeOrder: text(locale, 'placeOrder'),
            orderSent: text(locale, 'orderSent'),
            orderFailed: text(locale, 'orderFailed'),
            fixFields: text(locale, 'fixFields'),
          }}
        />
      </main>
    </>
  )
}
