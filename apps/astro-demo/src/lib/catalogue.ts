import catalogue from '../data/catalogue.json' with { type: 'json' }

/**
 * The shop's own catalogue, relative to the project root: the sandbox's seeded products (seed 1), as in
 * the Next.js demo. With real credentials, put your products there.
 */
export const CATALOGUE_FILE = 'src/data/catalogue.json'

// Type aliases rather than interfaces, so that they fit the `Record<string, unknown>` entries of `file()`.

/** A product of the demo shop: its own data, which the reviews are matched to by `id` (`product_variation_id`). */
export type Product = {
  id: string
  name: string
  brand: string
  sku: string
  gtin13: string
}

/** A shop of the brand: `id` is its `shop_key`. */
export type Shop = {
  id: string
  name: string
}

interface CatalogueFile {
  products: Product[]
  shops: { key: string; name: string }[]
}

/** The products of the catalogue file, as entries of the `products` collection. */
export function catalogueProducts(text: string): Product[] {
  return (JSON.parse(text) as CatalogueFile).products
}

/** The shops of the catalogue file, as entries of the `shops` collection. */
export function catalogueShops(text: string): Shop[] {
  return (JSON.parse(text) as CatalogueFile).shops.map(({ key, name }) => ({ id: key, name }))
}

/** Every product id of the catalogue, whose ratings the `ratings` collection loads. */
export const PRODUCT_IDS: readonly string[] = (catalogue as CatalogueFile).products.map(({ id }) => id)
