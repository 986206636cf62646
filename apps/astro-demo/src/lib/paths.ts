import { getCollection } from 'astro:content'
import type { Product } from './catalogue.ts'
import { LOCALES, type Locale } from './i18n.ts'

/** A page per language, for `getStaticPaths`. */
export function localePaths(): { params: { locale: Locale } }[] {
  return LOCALES.map((locale) => ({ params: { locale } }))
}

/** A page per product of the `products` collection in every language, for `getStaticPaths`. */
export async function productPaths(): Promise<
  { params: { locale: Locale; id: string }; props: { product: Product } }[]
> {
  const products: { data: Product }[] = await getCollection('products')
  return LOCALES.flatMap((locale) =>
    products.map(({ data }) => ({ params: { locale, id: data.id }, props: { product: data } })),
  )
}
