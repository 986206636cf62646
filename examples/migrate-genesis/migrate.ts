// Run once, before a shop stops calling the Genesis API: reads what its Genesis calls answer today,
// writes it in the shapes of the Published API (published/*.json, for whatever imported the old
// answers), and checks it against the Published calls that replace them. Exits with 1 when they differ.
import { mkdir, writeFile } from 'node:fs/promises'
import { createClient, type ProductReview } from '@verified-reviews/core'
import {
  fromGenesisAveragesResponse,
  fromGenesisProductBody,
  fromGenesisProductReviewsResponse,
  fromGenesisShopLine,
  fromGenesisStaticFile,
  type MigrationNote,
  takeItems,
} from '@verified-reviews/migrate'

/** The products the shop's pages asked Genesis about, and the bodies of its `POST /product` calls. */
const PRODUCTS = ['SKU-001', 'SKU-002', 'SKU-003']
const REVIEWS_BODY = { query: 'reviews', product: PRODUCTS, limit: 5, order: 'date_desc' } as const
const AVERAGE_BODY = { query: 'average', product: PRODUCTS } as const

// VERIFIED_REVIEWS_CLIENT_ID, _CLIENT_SECRET (Published), _WEBSITE_ID and _GENESIS_SECRET (Genesis), from
// the environment or .env.local (the environment wins).
try {
  process.loadEnvFile('.env.local')
} catch (error) {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
}
const genesisUrl = process.env.GENESIS_URL
const vr = createClient(genesisUrl ? { genesisUrl } : {})
const problems: string[] = []

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const list: T[] = []
  for await (const item of items) list.push(item)
  return list
}

async function write(file: string, records: unknown[], what: string): Promise<void> {
  await writeFile(`published/${file}`, `${JSON.stringify(records, null, 2)}\n`)
  console.log(`wrote published/${file}: ${records.length} ${what}`)
}

function notes(call: string, dropped: MigrationNote[]): void {
  for (const { field, reason } of dropped) console.log(`  ${call} does not carry ${field}: ${reason}`)
}

await mkdir('published', { recursive: true })

// 1. Product reviews: Genesis `POST /product` (query reviews), then `products.reviews.list`.
const { query: _reviews, ...reviewsParams } = REVIEWS_BODY
const reviews = fromGenesisProductReviewsResponse(await vr.genesis.product.reviews(reviewsParams))
await write('reviews.json', reviews, 'product reviews')
const reviewsCall = fromGenesisProductBody(REVIEWS_BODY)
if (reviewsCall.operation !== 'products.reviews.list') throw new Error('a reviews body maps to reviews')
notes('products.reviews.list', reviewsCall.dropped)
const per = (review: ProductReview) => review.product_variation_id
const published = await collect(
  takeItems(vr.products.reviews.list(reviewsCall.params), reviewsCall.take ?? 0, { per }),
)
for (const product of PRODUCTS) {
  const before = reviews.filter((review) => per(review) === product).map((review) => review.review_id)
  const after = published.filter((review) => per(review) === product).map((review) => review.review_id)
  const same = before.length === after.length && before.every((id, i) => id === after[i])
  console.log(
    `${product}: ${before.length} reviews from Genesis, ${same ? 'the same' : 'NOT the same'} ` +
      `${after.length} from products.reviews.list`,
  )
  if (!same) problems.push(`${product}: Genesis gave ${before.join(' ')}, Published ${after.join(' ')}`)
}

// 2. Product averages: Genesis `POST /product` (query average), then `products.ratings.list`.
const { query: _average, ...averageParams } = AVERAGE_BODY
const ratings = fromGenesisAveragesResponse(await vr.genesis.product.average(averageParams))
await write('ratings.json', ratings, 'product ratings')
const ratingsCall = fromGenesisProductBody(AVERAGE_BODY)
if (ratingsCall.operation !== 'products.ratings.list') throw new Error('an average body maps to ratings')
notes('products.ratings.list', ratingsCall.dropped)
const bulk = await vr.products.ratings.list(ratingsCall.params)
for (const rating of ratings) {
  const now = bulk.find((entry) => entry.product_variation_id === rating.product_variation_id)
  const same = now?.average === rating.average && now.count_total === rating.count_total
  console.log(
    `${rating.product_variation_id}: ${rating.average} from ${rating.count_total} reviews on Genesis, ` +
      `${same ? 'the same' : 'NOT the same'} on products.ratings.list`,
  )
  if (!same) problems.push(`${rating.product_variation_id}: Published rating ${JSON.stringify(now)}`)
}

// 3. The shop file (infoshops.txt), then `brands.list`.
const shops = (await vr.genesis.static.shops()).map(fromGenesisShopLine)
await write('shops.json', shops, 'shop ratings')
const shopsCall = fromGenesisStaticFile('infoshops.txt')
notes('brands.list', shopsCall.dropped)
const brands = await collect(vr.brands.list(shopsCall.params))
for (const shop of shops) {
  const now = brands.find((entry) => entry.shop_key === shop.shop_key)
  const same = now?.count_total_since_creation === shop.count_total_since_creation
  console.log(
    `shop ${shop.shop_key}: ${shop.count_total_since_creation} reviews in the shop file, ` +
      `${same ? 'the same' : 'NOT the same'} on brands.list`,
  )
  if (!same) problems.push(`shop ${shop.shop_key}: brands.list gave ${JSON.stringify(now)}`)
}

if (problems.length > 0) {
  console.error(`the Published calls differ from the Genesis calls:\n${problems.join('\n')}`)
  process.exit(1)
}
console.log('ok: the Published calls give what the Genesis calls gave')
