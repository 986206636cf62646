// Writes the demo shops' own product list, from the sandbox's seeded catalogue (seed 1), so that the
// shops' products are the ones the sandbox has reviews for: apps/next-demo/lib/catalogue.json and
// apps/astro-demo/src/data/catalogue.json (the same file). A real shop keeps its own catalogue; with real
// credentials, put your products there.
//
// The sandbox knows names, brands and identifiers; a shop also knows what Google asks of a product page
// (price and currency, availability, an image, a description), which is made up here, steadily, from the SKU.
import { writeFile } from 'node:fs/promises'
import { generateDataset, websiteIdFromSeed } from '../../../packages/sandbox/src/internal/seed.ts'

function hashOf(text: string): number {
  let hash = 0
  for (const char of text) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0
  return hash
}

// The sandbox's catalogue has no prices: a shop has its own; these are steady, from the SKU.
function priceOf(sku: string): number {
  return 9.9 + (hashOf(sku) % 40) * 5
}

// One product in eleven is sold out, so that the demo shows both states.
function availabilityOf(sku: string): 'InStock' | 'OutOfStock' {
  return hashOf(`${sku}/stock`) % 11 === 0 ? 'OutOfStock' : 'InStock'
}

/** What each category of the seeded catalogue (the second part of the SKU) is, for the descriptions. */
const CATEGORY_TEXT: Record<string, string> = {
  APP: 'Clothing cut to last, easy to care for and made in small batches.',
  BEA: 'Care made with natural ingredients, without parabens.',
  HOM: 'For the home: made to be used every day, and to stay.',
  KIT: 'For the kitchen: dishwasher safe and made to be used every day.',
  TEC: 'An everyday accessory for your devices, with a two-year warranty.',
}

/** Variants that are colours (the others are sizes and editions). */
const COLOURS = new Set([
  'Black',
  'Blue',
  'Charcoal',
  'Cherry Red',
  'Coral',
  'Forest Green',
  'Ivory',
  'Midnight Blue',
  'Mint',
  'Natural',
  'Navy',
  'Off-White',
  'Sage',
  'Sand',
  'Stone Grey',
  'Terracotta',
  'White',
])

/** The product group the Astro demo shows on one page: the item sold in the most colours by one brand. */
const GROUP_ITEM = 'Wool Throw Blanket'

const dataset = generateDataset({
  seed: 1,
  websiteId: websiteIdFromSeed(1),
  organizationName: 'Maison Sandbox',
})
const products = dataset.products.map((product) => {
  const [item = product.product_name, variant = ''] = product.product_name.split(' – ')
  const category = product.product_sku.split('-')[1] ?? ''
  const sku = product.product_sku
  return {
    id: product.product_variation_id,
    name: product.product_name,
    brand: product.product_brand,
    sku,
    gtin13: product.product_ean,
    mpn: product.product_mpn,
    price: Math.round(priceOf(sku) * 100) / 100,
    currency: 'EUR',
    availability: availabilityOf(sku),
    description:
      `${item}${variant === '' ? '' : ` (${variant.toLowerCase()})`} by ${product.product_brand}. ${CATEGORY_TEXT[category] ?? ''}`.trim(),
    image: `/images/products/${product.product_variation_id.toLowerCase()}.svg`,
    ...(COLOURS.has(variant) ? { color: variant } : {}),
  }
})
const variants = products.filter((product) => product.name.startsWith(`${GROUP_ITEM} – `))
const catalogue = {
  products,
  groups: [
    {
      id: GROUP_ITEM.toLowerCase().replaceAll(' ', '-'),
      name: GROUP_ITEM,
      brand: variants[0]?.brand ?? '',
      description: `${GROUP_ITEM} by ${variants[0]?.brand ?? ''}, in ${variants.length} colours. ${CATEGORY_TEXT.HOM}`,
      variants: variants.map((product) => product.id),
    },
  ],
  shops: dataset.shops.map((shop) => ({ key: shop.shop_key, name: shop.name })),
}
const text = `${JSON.stringify(catalogue, null, 2)}\n`
for (const file of ['../lib/catalogue.json', '../../astro-demo/src/data/catalogue.json']) {
  await writeFile(new URL(file, import.meta.url), text)
}
console.log(
  `catalogue.json (next-demo, astro-demo): ${products.length} products, ${catalogue.groups.length} group, ${catalogue.shops.length} shops`,
)
