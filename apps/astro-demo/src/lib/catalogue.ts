import type { ProductFacts, ProductGroupFacts } from '@verified-reviews/core/jsonld'
import catalogue from '../data/catalogue.json' with { type: 'json' }

/**
 * The shop's own catalogue, relative to the project root: the sandbox's seeded products (seed 1), as in
 * the Next.js demo, with what a shop knows of each (price and currency, availability, an image, a
 * description), written by `apps/next-demo/scripts/write-catalogue.ts`. With real credentials, put your
 * products there.
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
  mpn: string
  /** Unit price in `currency`. */
  price: number
  /** ISO 4217 code. */
  currency: string
  availability: 'InStock' | 'OutOfStock'
  description: string
  /** Path of the product's picture on this site. */
  image: string
  color?: string | undefined
}

/** A product sold in several variations (here, colours): the ids of its variations, one page for all. */
export type ProductGroup = {
  id: string
  name: string
  brand: string
  description: string
  variants: string[]
}

/** A shop of the brand: `id` is its `shop_key`. */
export type Shop = {
  id: string
  name: string
}

interface CatalogueFile {
  products: Product[]
  groups: ProductGroup[]
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

/** Every product id of the catalogue, whose rating and reviews the `reviews` collection loads. */
export const PRODUCT_IDS: readonly string[] = (catalogue as CatalogueFile).products.map(({ id }) => id)

/** The product groups of the catalogue. */
export const GROUPS: readonly ProductGroup[] = (catalogue as CatalogueFile).groups

/** The product's facts for its JSON-LD Product node, as the page shows them; `site` makes URLs absolute. */
export function productFacts(product: Product, pageUrl: string, site: URL | string): ProductFacts {
  return {
    name: product.name,
    description: product.description,
    image: new URL(product.image, site).href,
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

/**
 * The facts of a product group for its JSON-LD: a `ProductGroup` whose variations (`hasVariant`) each
 * keep their own facts and offer, at the URL of their own page (`variantUrl`); the review markup,
 * over every variation, goes on the group.
 */
export function productGroupFacts(
  group: ProductGroup,
  variants: readonly Product[],
  variantUrl: (product: Product) => string,
  site: URL | string,
): ProductGroupFacts {
  return {
    '@type': 'ProductGroup',
    name: group.name,
    description: group.description,
    brand: { '@type': 'Brand', name: group.brand },
    productGroupID: group.id,
    variesBy: 'https://schema.org/color',
    hasVariant: variants.map((product) => productFacts(product, variantUrl(product), site)),
  }
}
