import '@verified-reviews/react/styles.css'
import '../globals.css'
import { notFound } from 'next/navigation'
import type { ReactNode } from 'react'
import { isLocale, LOCALES } from '@/lib/i18n'

export function generateStaticParams() {
  return LOCALES.map((locale) => ({ locale }))
}

export default async function LocaleLayout(props: {
  children: ReactNode
  params: Promise<{ locale: string }>
}) {
  const { locale } = await props.params
  if (!isLocale(locale)) notFound()
  return (
    <html lang={locale} className="vr-light">
      <body>{props.children}</body>
    </html>
  )
}
