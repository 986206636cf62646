import {
  composeReply,
  composeReview,
  composeSummary,
  pickAuthor,
  pickLanguage,
  pickLocale,
} from './content.ts'
import { Random } from './random.ts'
import {
  type BrandReview,
  type Incentivization,
  LANGUAGES,
  type Language,
  type Media,
  type Moderation,
  type Product,
  type ProductReview,
  type ReviewExtra,
  type Shop,
} from './types.ts'

/** Seeded dates fall in this range (inclusive). */
export const SEED_START = Date.UTC(2024, 0, 1)
export const SEED_END = Date.UTC(2026, 5, 30, 23, 59, 59)

export const PRODUCT_COUNT = 60
export const PRODUCTS_WITHOUT_REVIEWS = 6
export const PRODUCT_REVIEW_COUNT = 3000
export const BRAND_REVIEW_COUNT = 500

const MINUTE = 60_000
const HOUR = 3_600_000
const DAY = 86_400_000

/** What the generator needs to know besides the seed. */
export interface SeedContext {
  seed: number
  websiteId: string
  organizationName: string
  /** Catalogue products; `PRODUCT_COUNT` when absent. */
  products?: number
  /** Product reviews; `PRODUCT_REVIEW_COUNT` when absent. */
  reviews?: number
}

export interface Dataset {
  products: Product[]
  productReviews: ProductReview[]
  brandReviews: BrandReview[]
  shops: Shop[]
}

type Rate = ProductReview['review_rate']

export interface Category {
  code: string
  items: readonly string[]
  variants: readonly string[]
  brands: readonly (readonly [name: string, code: string])[]
  /** Clothing and shoes are rated on fit. */
  sizeFit: boolean
}

const CATEGORIES: readonly Category[] = [
  {
    code: 'APP',
    items: [
      'Merino Wool Sweater',
      'Linen Shirt',
      'Slim Chino Trousers',
      'Waterproof Parka',
      'Organic Cotton T-Shirt',
      'Running Shoes',
      'Leather Ankle Boots',
      'Knitted Beanie',
    ],
    variants: ['Navy', 'Charcoal', 'Sand', 'Forest Green', 'Terracotta', 'Off-White'],
    brands: [
      ['Nordvik', 'NV'],
      ['Atelier Verde', 'AV'],
    ],
    sizeFit: true,
  },
  {
    code: 'HOM',
    items: ['Ceramic Table Lamp', 'Linen Bed Set', 'Oak Side Table', 'Scented Candle', 'Wool Throw Blanket'],
    variants: ['Natural', 'Sage', 'Clay', 'Ivory', 'Midnight Blue'],
    brands: [
      ['Maison Lumo', 'ML'],
      ['Atelier Verde', 'AV'],
    ],
    sizeFit: false,
  },
  {
    code: 'KIT',
    items: [
      'Cast Iron Casserole',
      "Chef's Knife",
      'Espresso Cup Set',
      'Bamboo Cutting Board',
      'Glass Storage Jars',
    ],
    variants: ['Black', 'Cherry Red', 'Stone Grey', 'Mint', 'Classic'],
    brands: [
      ['Cala Cuisine', 'CC'],
      ['Maison Lumo', 'ML'],
    ],
    sizeFit: false,
  },
  {
    code: 'BEA',
    items: [
      'Hydrating Face Cream',
      'Rose Hand Soap',
      'Argan Hair Oil',
      'Mineral Sunscreen SPF 50',
      'Lavender Body Lotion',
    ],
    variants: ['50 ml', '100 ml', '200 ml', 'Travel Size'],
    brands: [['Botanie', 'BT']],
    sizeFit: false,
  },
  {
    code: 'TEC',
    items: ['Wireless Earbuds', 'Phone Case', 'USB-C Charger 65 W', 'Bluetooth Speaker', 'Laptop Sleeve 14"'],
    variants: ['Black', 'White', 'Blue', 'Coral'],
    brands: [['Ondo', 'OD']],
    sizeFit: false,
  },
]

const SHOPS: readonly (readonly [key: string, city: string, weight: number])[] = [
  ['shop-paris', 'Paris Rivoli', 130],
  ['shop-lyon', 'Lyon Part-Dieu', 90],
  ['shop-bordeaux', 'Bordeaux Sainte-Catherine', 60],
  ['shop-lille', 'Lille Grand Place', 50],
  ['shop-marseille', 'Marseille Vieux-Port', 30],
]
/** Weight of brand reviews not linked to a shop, next to the shops' weights. */
const BRAND_OWN_WEIGHT = 140

const INCENTIVIZATION_WEIGHTS: readonly (readonly [Incentivization, number])[] = [
  ['none', 75],
  ['spontaneous', 12],
  ['gifted', 7],
  ['compensated', 6],
]

const CRITERIA = {
  quality: { display_name: 'Quality', label: 'Product quality' },
  value_for_money: { display_name: 'Value for money', label: 'Value for money' },
  size_fit: { display_name: 'Size', label: 'How does it fit?' },
  delivery: { display_name: 'Delivery', label: 'Delivery' },
  customer_service: { display_name: 'Customer service', label: 'Customer service' },
  purchase_channel: { display_name: 'Purchase channel', label: 'Where did you buy?' },
} as const

const SIZE_FIT_VALUES = ['Runs small', 'True to size', 'Runs large'] as const

/** The GS1 check digit of a GTIN (EAN-13, UPC-A, JAN) body. */
export function gtinCheckDigit(body: string): string {
  let sum = 0
  for (let i = 0; i < body.length; i++) {
    const digit = Number(body[body.length - 1 - i])
    sum += i % 2 === 0 ? digit * 3 : digit
  }
  return String((10 - (sum % 10)) % 10)
}

/** The website id used when none is given: a uuid derived from the seed. */
export function websiteIdFromSeed(seed: number): string {
  return new Random(seed, 'website').uuid()
}

export function toIso(ms: number): string {
  return new Date(ms).toISOString()
}

/** A sandbox path of a review image; routes make it absolute with the request's origin. */
export function mediaPath(name: string, size: 'small' | 'medium' | 'large'): string {
  return `/__sandbox/media/${name}-${size}.svg`
}

function uniqueCode(used: Set<string>, make: () => string): string {
  for (;;) {
    const code = make()
    if (!used.has(code)) {
      used.add(code)
      return code
    }
  }
}

function categoryOf(productName: string): Category | undefined {
  return CATEGORIES.find((category) => category.items.some((item) => productName.startsWith(`${item} – `)))
}

/** A catalogue entry with valid GTINs; `category` defaults to a random one. */
export function generateProduct(
  rng: Random,
  productVariationId: string,
  used: Set<string>,
  category: Category = rng.pick(CATEGORIES),
  item: string = rng.pick(category.items),
  variant: string = rng.pick(category.variants),
  /** Digits of the SKU's number: 4, unless a large catalogue needs more of them. */
  skuDigits = 4,
  /** Added to the name when the catalogue has more products than item and variant pairs. */
  edition = '',
): Product {
  const [brand, brandCode] = rng.pick(category.brands)
  const digits = (n: number) => rng.string(n, '0123456789')
  const gtin = (prefix: string, length: number) =>
    uniqueCode(used, () => {
      const body = prefix + digits(length - prefix.length - 1)
      return body + gtinCheckDigit(body)
    })
  return {
    product_variation_id: productVariationId,
    product_ean: gtin('37', 13),
    product_upc: gtin('0', 12),
    product_jan: gtin('49', 13),
    product_sku: uniqueCode(used, () => `${brandCode}-${category.code}-${digits(skuDigits)}`),
    product_mpn: uniqueCode(used, () => `${brandCode}${rng.string(6, 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789')}`),
    product_brand: brand,
    product_name: `${item} – ${variant}${edition}`,
  }
}

function generateCatalogue(rng: Random, used: Set<string>, count: number): Product[] {
  const combos: [Category, string, string][] = []
  for (const category of CATEGORIES) {
    for (const item of category.items)
      for (const variant of category.variants) combos.push([category, item, variant])
  }
  const shuffled = rng.shuffle(combos)
  // SKU-001 … SKU-060 for the seeded catalogue; as many digits as the count needs for a larger one.
  const width = Math.max(3, String(count).length)
  const skuDigits = count > 1000 ? 6 : 4
  return Array.from({ length: count }, (_, index) => {
    const [category, item, variant] = shuffled[index % shuffled.length] as [Category, string, string]
    const round = Math.floor(index / shuffled.length)
    return generateProduct(
      rng,
      `SKU-${String(index + 1).padStart(width, '0')}`,
      used,
      category,
      item,
      variant,
      skuDigits,
      round === 0 ? '' : ` No. ${round + 1}`,
    )
  })
}

/**
 * How many reviews each product gets: a few products with none, one or two (so some have no AI
 * summary), and a long tail under a handful of best sellers.
 */
function reviewCounts(rng: Random, productCount: number, reviewCount: number): number[] {
  const order = rng.shuffle(Array.from({ length: productCount }, (_, i) => i))
  const counts = new Array<number>(productCount).fill(0)
  // One product in ten has no review (6 of the seeded 60), four have one or two, the rest at least 3.
  const without = Math.min(
    productCount - 1,
    Math.round((productCount * PRODUCTS_WITHOUT_REVIEWS) / PRODUCT_COUNT),
  )
  let fixed = [1, 1, 2, 2].slice(0, Math.max(0, productCount - without - 1))
  if (fixed.reduce((a, b) => a + b, 0) > reviewCount) fixed = []
  const noReviews = order.slice(0, without)
  const small = order.slice(without, without + fixed.length)
  const rest = order.slice(without + fixed.length)
  for (const index of noReviews) counts[index] = 0
  small.forEach((index, i) => {
    counts[index] = fixed[i] as number
  })
  const spare = reviewCount - fixed.reduce((a, b) => a + b, 0)
  const minimum = Math.min(3, Math.floor(spare / rest.length))
  const remaining = spare - minimum * rest.length
  // The seeded catalogue's long tail under a handful of best sellers; flatter for a large catalogue,
  // whose best seller would otherwise hold a fifth of every review.
  const exponent = productCount <= PRODUCT_COUNT ? 1.4 : 1
  const weights = rest.map((_, rank) => 1 / (rank + 2) ** exponent)
  const totalWeight = weights.reduce((a, b) => a + b, 0)
  const shares = weights.map((w) => (w / totalWeight) * remaining)
  const floors = shares.map(Math.floor)
  let leftover = remaining - floors.reduce((a, b) => a + b, 0)
  // Largest remainder, so the counts add up exactly.
  const byRemainder = shares
    .map((s, i) => [s - Math.floor(s), i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
  for (const [, i] of byRemainder) {
    if (leftover === 0) break
    floors[i] = (floors[i] as number) + 1
    leftover--
  }
  rest.forEach((index, i) => {
    counts[index] = minimum + (floors[i] as number)
  })
  return counts
}

/** A rating around a mean, as a product or a shop of that standing would get. */
function drawRate(rng: Random, mean: number): Rate {
  const weights = ([1, 2, 3, 4, 5] as const).map((r) => [r, Math.exp(-((r - mean) ** 2) / 2.2)] as const)
  return rng.weighted(weights)
}

function drawStanding(rng: Random): number {
  // Most products are liked; about one in eight is a disappointment.
  return rng.chance(0.125) ? 2 + rng.next() * 1.3 : 3.9 + rng.next() * 1.1
}

export interface ReviewDates {
  order: number
  review: number
  publish: number
}

/** Seeded dates: order, then review 2 to 40 days later, then publication within 4 days. */
function seededDates(rng: Random): ReviewDates {
  const order = SEED_START + rng.int(0, Math.floor((SEED_END - SEED_START - 45 * DAY) / 1000)) * 1000
  const review = order + rng.int(2 * 24 * 60, 40 * 24 * 60) * MINUTE + rng.int(0, 59) * 1000
  const publish = review + rng.int(10, 4 * 24 * 60) * MINUTE + rng.int(0, 59) * 1000
  return { order, review, publish }
}

/** Dates of a review published at `publish`: written up to two days before, ordered before that. */
export function datesBefore(rng: Random, publish: number): ReviewDates {
  const review = publish - rng.int(1, 48 * 60) * MINUTE
  const order = review - rng.int(2 * 24 * 60, 20 * 24 * 60) * MINUTE
  return { order, review, publish }
}

function moderationDate(rng: Random, publish: number, latest: number): string {
  return toIso(Math.min(publish + rng.int(2 * 60, 6 * 24 * 60) * MINUTE, Math.max(publish, latest)))
}

function rateExtra(code: keyof typeof CRITERIA, rate: number, rng: Random): ReviewExtra {
  const value = Math.min(5, Math.max(1, rate + rng.int(-1, 1)))
  return { ...CRITERIA[code], type: 'I1', value }
}

function orderReference(rng: Random, ms: number): string {
  const d = new Date(ms)
  return `ORD-${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}-${rng.string(6, '0123456789')}`
}

function translations(texts: Record<Language, string>): Partial<Record<Language, string>> {
  const out: Partial<Record<Language, string>> = {}
  for (const language of LANGUAGES) out[language] = texts[language]
  return out
}

/** What every review starts from: an id, a language, an author who may hide their last name, a text. */
function draftReview(rng: Random, rate: number, subject: 'product' | 'service') {
  const reviewId = rng.uuid()
  const language = pickLanguage(rng)
  const author = pickAuthor(rng, language)
  const disclosed = rng.chance(0.7)
  const text = composeReview(rng, rate, subject)
  return { reviewId, language, author, disclosed, text }
}

export interface ReviewOptions {
  rate?: Rate
  /** Moderation replies are dated no later than this (or the publication, if later). */
  latest: number
}

/** One complete product review of `product` with these dates. */
export function generateProductReview(
  rng: Random,
  product: Product,
  dates: ReviewDates,
  context: SeedContext,
  options: ReviewOptions,
): ProductReview {
  const category = categoryOf(product.product_name)
  const rate = options.rate ?? drawRate(rng, 4.1)
  const { reviewId, language, author, disclosed, text } = draftReview(rng, rate, 'product')

  const moderations: Moderation[] = []
  if (rng.chance(rate <= 2 ? 0.6 : rate === 3 ? 0.3 : 0.1)) {
    const reply = composeReply(rng, rate)
    moderations.push({
      comment: reply[language],
      date: moderationDate(rng, dates.publish, options.latest),
      origin: 'merchant',
      origin_type: 'moderator',
      translated_comment: translations(reply),
    })
  }

  const medias: Media[] = []
  if (rng.chance(0.12)) {
    const count = rng.int(1, 3)
    for (let k = 1; k <= count; k++) {
      const name = `${reviewId.slice(0, 8)}-${k}`
      medias.push({
        type: 'IMAGE',
        small: mediaPath(name, 'small'),
        medium: mediaPath(name, 'medium'),
        large: mediaPath(name, 'large'),
      })
    }
  }

  const extras: Record<string, ReviewExtra> = {}
  if (rng.chance(0.65)) {
    extras.quality = rateExtra('quality', rate, rng)
    extras.value_for_money = rateExtra('value_for_money', rate, rng)
  }
  if (category?.sizeFit && rng.chance(0.7)) {
    extras.size_fit = {
      ...CRITERIA.size_fit,
      type: 'S',
      value: rng.weighted(SIZE_FIT_VALUES.map((v, i) => [v, i === 1 ? 6 : 2])),
    }
  }

  const syndicated = rng.chance(0.06)
  const source = rng.pick([
    [`${context.organizationName} Belgique`, 'https://be.maison-sandbox.example'],
    [`${context.organizationName} Schweiz`, 'https://ch.maison-sandbox.example'],
  ] as const)

  return {
    review_id: reviewId,
    author_firstname: author.firstname,
    author_lastname: disclosed ? author.lastname : '',
    is_personal_data_disclosed: disclosed,
    locale: pickLocale(rng, language),
    review_date: toIso(dates.review),
    publish_date: toIso(dates.publish),
    order_date: toIso(dates.order),
    review_content: text[language],
    review_rate: rate,
    order_reference: orderReference(rng, dates.order),
    order_id: String(rng.int(10_000_000, 99_999_999)),
    product_variation_id: product.product_variation_id,
    product_ean: product.product_ean,
    product_upc: product.product_upc,
    product_jan: product.product_jan,
    product_sku: product.product_sku,
    product_mpn: product.product_mpn,
    product_brand: product.product_brand,
    product_name: product.product_name,
    is_verified: rng.chance(0.9),
    medias,
    incentivization: rng.weighted(INCENTIVIZATION_WEIGHTS),
    syndicated_review: syndicated,
    syndicated_review_source: syndicated ? source[0] : '',
    syndicated_review_source_url: syndicated ? source[1] : '',
    translated_review: translations(text),
    moderations,
    extras,
    helpful_votes: {
      helpful: rng.chance(0.5) ? 0 : rng.int(1, 25),
      helpless: rng.chance(0.7) ? 0 : rng.int(1, 4),
    },
  }
}

/** One complete brand review for `shopKey` ('' for the brand itself) with these dates. */
export function generateBrandReview(
  rng: Random,
  shopKey: string,
  dates: ReviewDates,
  context: SeedContext,
  options: ReviewOptions,
): BrandReview {
  const rate = options.rate ?? drawRate(rng, 4.2)
  const { reviewId, language, author, disclosed, text } = draftReview(rng, rate, 'service')
  const moderations: BrandReview['moderations'] = []
  if (rng.chance(rate <= 2 ? 0.7 : rate === 3 ? 0.3 : 0.08)) {
    moderations.push({
      comment: composeReply(rng, rate)[language],
      date: moderationDate(rng, dates.publish, options.latest),
      origin: 'merchant',
      origin_type: 'moderator',
    })
  }
  const extras: Record<string, ReviewExtra> = {}
  if (rng.chance(0.55)) {
    extras.delivery = rateExtra('delivery', rate, rng)
    extras.customer_service = rateExtra('customer_service', rate, rng)
    extras.purchase_channel = {
      ...CRITERIA.purchase_channel,
      type: 'S',
      value: shopKey ? 'In store' : 'Online',
    }
  }
  return {
    review_id: reviewId,
    order_reference: orderReference(rng, dates.order),
    shop_key: shopKey,
    review_content: text[language],
    author_firstname: author.firstname,
    author_lastname: disclosed ? author.lastname : '',
    locale: pickLocale(rng, language),
    website_id: context.websiteId,
    review_rate: rate,
    incentivization: rng.weighted(INCENTIVIZATION_WEIGHTS),
    is_verified: rng.chance(0.92),
    is_personal_data_disclosed: disclosed,
    order_date: toIso(dates.order),
    review_date: toIso(dates.review),
    publish_date: toIso(dates.publish),
    moderations,
    extras,
  }
}

/** A shop record; the certificate page lives on a reserved example domain. */
export function makeShop(shopKey: string, name: string, websiteId: string): Shop {
  return {
    shop_key: shopKey,
    name,
    certificate_url: `https://certificates.reviews.example/${websiteId}/${encodeURIComponent(shopKey)}`,
  }
}

/** The AI summary of a product from its reviews; undefined below 3 reviews. */
export function summarize(
  rng: Random,
  product: Product,
  reviews: readonly ProductReview[],
  updatedAt: number,
): Product['review_summary'] {
  if (reviews.length < 3) return undefined
  const average = reviews.reduce((sum, r) => sum + r.review_rate, 0) / reviews.length
  return { content: composeSummary(rng, product.product_name, average), last_updated_at: toIso(updatedAt) }
}

function byPublication<T extends { publish_date: string; review_id: string }>(a: T, b: T): number {
  if (a.publish_date !== b.publish_date) return a.publish_date < b.publish_date ? -1 : 1
  return a.review_id < b.review_id ? -1 : a.review_id > b.review_id ? 1 : 0
}

/** The whole seeded data set: the same context always gives the same data. */
export function generateDataset(context: SeedContext): Dataset {
  const catalogueRng = new Random(context.seed, 'catalogue')
  const productRng = new Random(context.seed, 'product-reviews')
  const brandRng = new Random(context.seed, 'brand-reviews')

  const products = generateCatalogue(catalogueRng, new Set(), context.products ?? PRODUCT_COUNT)
  const counts = reviewCounts(catalogueRng, products.length, context.reviews ?? PRODUCT_REVIEW_COUNT)
  const productReviews: ProductReview[] = []
  products.forEach((product, index) => {
    const standing = drawStanding(productRng)
    const own: ProductReview[] = []
    for (let i = 0; i < (counts[index] as number); i++) {
      const rate = drawRate(productRng, standing)
      own.push(
        generateProductReview(productRng, product, seededDates(productRng), context, {
          rate,
          latest: SEED_END,
        }),
      )
    }
    const latest = own.reduce((max, r) => Math.max(max, Date.parse(r.publish_date)), SEED_START)
    const summary = summarize(
      productRng,
      product,
      own,
      Math.min(SEED_END, latest + productRng.int(1, 48) * HOUR),
    )
    if (summary) product.review_summary = summary
    productReviews.push(...own)
  })
  productReviews.sort(byPublication)

  const shops = SHOPS.map(([key, city]) =>
    makeShop(key, `${context.organizationName} ${city}`, context.websiteId),
  )
  const shopWeights = [
    ['', BRAND_OWN_WEIGHT] as const,
    ...SHOPS.map(([key, , weight]) => [key, weight] as const),
  ]
  const standings = new Map(shopWeights.map(([key]) => [key, 3.6 + brandRng.next() * 1.2]))
  const brandReviews: BrandReview[] = []
  for (let i = 0; i < BRAND_REVIEW_COUNT; i++) {
    const shopKey = brandRng.weighted(shopWeights)
    // A few visits go wrong whatever the shop's standing.
    const rate = drawRate(brandRng, brandRng.chance(0.05) ? 1.5 : (standings.get(shopKey) as number))
    brandReviews.push(
      generateBrandReview(brandRng, shopKey, seededDates(brandRng), context, { rate, latest: SEED_END }),
    )
  }
  brandReviews.sort(byPublication)

  return { products, productReviews, brandReviews, shops }
}
