import type { ProductFacts } from '@verified-reviews/core/jsonld'
import catalogue from './catalogue.json'
import { SITE_URL } from './site'

/**
 * A product of the demo shop: its own data, which the reviews are matched to by `id`
 * (`product_variation_id`). What Google asks of a product page (price and currency, availability, an
 * image, a description) is the shop's, as in any catalogue.
 */
export interface Product {
  id: string
  name: string
  brand: string
  sku: string
  gtin13: string
  mpn: string
  /** Unit price in `currency`: the shop's own, never taken from a form. */
  price: number
  /** ISO 4217 code. */
  currency: string
  availability: 'InStock' | 'OutOfStock'
  description: string
  /** Path of the product's picture on this site. */
  image: string
  color?: string
}

/** A shop of the brand, by `shop_key`. */
export interface Shop {
  key: string
  name: string
}

export const PRODUCTS: readonly Product[] = catalogue.products as Product[]
export const SHOPS: readonly Shop[] = catalogue.shops

export function findProduct(id: string): Product | undefined {
  return PRODUCTS.find((product) => product.id === id)
}

export function findShop(key: string | undefined): Shop | undefined {
  return key === undefined ? undefined : SHOPS.find((shop) => shop.key === key)
}

/**
 * What the page says about the product in its JSON-LD, the facts it shows: the review components merge
 * their review markup into this node (`product`), so the page has one Product node that passes Google's
 * product-snippet and merchant-listing rules even before its first review.
 */
export function productFacts(product: Product, pageUrl: string): ProductFacts {
  return {
    name: product.name,
    description: product.description,
    image: new URL(product.image, `${SITE_URL}/`).href,
    sku: product.sku,
    mpn: product.mpn,
    gtin13: product.gtin13,
    brand: { '@type': 'Brand', name: product.brand },
    ...(product.color === undefined ? {} : { color: product.color }),
    offers: {
      '@type': 'Offer',
      url: pageUrl,
      price: product.price,
      priceCurrency: product.currency,
      availability: `https://schema.org/${product.availability}`,
      itemCondition: 'https://schema.org/NewCondition',
    },
  }
}
