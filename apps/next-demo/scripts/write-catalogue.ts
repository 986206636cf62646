// Writes lib/catalogue.json, the demo shop's own product list, from the sandbox's seeded catalogue
// (seed 1), so that the shop's products are the ones the sandbox has reviews for. A real shop keeps
// its own catalogue; with real credentials, put your products there.
import { writeFile } from 'node:fs/promises'
import { generateDataset, websiteIdFromSeed } from '../../../packages/sandbox/src/internal/seed.ts'

// The sandbox's catalogue has no prices: a shop has its own; these are steady, from the SKU.
function priceOf(sku: string): number {
  let hash = 0
  for (const char of sku) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0
  return 9.9 + (hash % 40) * 5
}

const dataset = generateDataset({
  seed: 1,
  websiteId: websiteIdFromSeed(1),
  organizationName: 'Maison Sandbox',
})
const catalogue = {
  products: dataset.products.map((product) => ({
    id: product.product_variation_id,
    name: product.product_name,
    brand: product.product_brand,
    sku: product.product_sku,
    gtin13: product.product_ean,
    price: Math.round(priceOf(product.product_sku) * 100) / 100,
  })),
  shops: dataset.shops.map((shop) => ({ key: shop.shop_key, name: shop.name })),
}
await writeFile(new URL('../lib/catalogue.json', import.meta.url), `${JSON.stringify(catalogue, null, 2)}\n`)
console.log(`lib/catalogue.json: ${catalogue.products.length} products, ${catalogue.shops.length} shops`)
