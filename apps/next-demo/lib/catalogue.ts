import catalogue from './catalogue.json'

/** A product of the demo shop: its own data, which the reviews are matched to by `id` (`product_variation_id`). */
export interface Product {
  id: string
  name: string
  brand: string
  sku: string
  gtin13: string
  /** Unit price in euros: the shop's own, never taken from a form. */
  price: number
}

/** A shop of the brand, by `shop_key`. */
export interface Shop {
  key: string
  name: string
}

export const PRODUCTS: readonly Product[] = catalogue.products
export const SHOPS: readonly Shop[] = catalogue.shops

export function findProduct(id: string): Product | undefined {
  return PRODUCTS.find((product) => product.id === id)
}

export function findShop(key: string | undefined): Shop | undefined {
  return key === undefined ? undefined : SHOPS.find((shop) => shop.key === key)
}
