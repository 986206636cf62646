import type {
  GenesisBrandFile,
  GenesisBrandReview,
  GenesisProductAverage,
  GenesisProductAveragesResponse,
  GenesisProductReview,
  GenesisProductReviewsResponse,
  GenesisReview,
  GenesisShopLine,
  GenesisWebsiteResponse,
} from '../../types/genesis.ts'
import type {
  BrandRating,
  BrandReview,
  ProductRating,
  ProductReview,
  ReviewRate,
} from '../../types/published.ts'
import { ValidationError } from '../base/errors.ts'
import { check, isIntegerIn } from '../base/validate.ts'
import { fromOldModeration } from './legacy-records.ts'
import type { MigrationNote } from './result.ts'

/**
 * What the Genesis review mappers cannot carry over: Published fields Genesis does not have, filled
 * with the neutral value named here.
 */
export const GENESIS_REVIEW_NOTES: readonly MigrationNote[] = [
  {
    field: 'is_verified',
    reason:
      'filled with false: Genesis does not say, and a review must not claim a check it may not have had',
  },
  { field: 'incentivization', reason: 'filled with none: Genesis does not say' },
  {
    field: 'is_personal_data_disclosed',
    reason: 'true when Genesis gave a first or last name to show, else false',
  },
  { field: 'extras', reason: 'filled with {}: Genesis has no extra criteria' },
  {
    field: 'moderations[].origin_type',
    reason: 'filled with moderator (the only value the spec shows); translated_comment left out',
  },
  { field: 'website_id (brand reviews)', reason: 'the website given as option, else an empty string' },
  {
    field:
      'order_id, product_ean, product_upc, product_jan, product_sku, product_mpn, product_brand, product_name ' +
      '(product reviews)',
    reason: 'filled with an empty string: Genesis does not give them',
  },
  {
    field: 'medias, translated_review, syndicated_* (product reviews)',
    reason: 'filled with [], {}, false and empty strings: Genesis does not give them',
  },
]

/**
 * What the Genesis static files carry that {@link fromGenesisBrandFile} and {@link fromGenesisShopLine}
 * leave out, and how their numbers compare with `brands.list`.
 */
export const GENESIS_FILE_NOTES: readonly MigrationNote[] = [
  { field: 'name_shop, certificate_url', reason: 'dropped: Published brand ratings carry neither' },
  {
    field: 'average, rating',
    reason:
      'an average over every review; the Published API gives one_year and five_year averages and per-star ' +
      'counts instead, so the all-time average has no Published field',
  },
]

/** Options of the Genesis brand review mappers. */
export interface GenesisBrandReviewOptions {
  /**
   * The website, which Genesis reviews do not carry but Published brand reviews do.
   * @default ''
   */
  websiteId?: string
}

/**
 * A Genesis brand or shop review in the Published `BrandReview` shape: `id_review`→`review_id`,
 * `rate` (a string)→`review_rate`, `review`→`review_content`, `order_ref`→`order_reference`,
 * `id_shop`→`shop_key`, `firstname`/`lastname`→`author_*`, `language`→`locale` (both `fr_FR`),
 * `moderation`→`moderations`. Fields Genesis lacks are filled as {@link GENESIS_REVIEW_NOTES} lists.
 */
export function fromGenesisBrandReview(
  review: GenesisBrandReview,
  options: GenesisBrandReviewOptions = {},
): BrandReview {
  return { ...reviewFields(review), shop_key: review.id_shop, website_id: options.websiteId ?? '' }
}

/**
 * A Genesis product review in the Published `ProductReview` shape: as {@link fromGenesisBrandReview},
 * with `id_product`→`product_variation_id`. Fields Genesis lacks are filled as
 * {@link GENESIS_REVIEW_NOTES} lists.
 */
export function fromGenesisProductReview(review: GenesisProductReview): ProductReview {
  return {
    ...reviewFields(review),
    order_id: '',
    product_variation_id: review.id_product,
    product_ean: '',
    product_upc: '',
    product_jan: '',
    product_sku: '',
    product_mpn: '',
    product_brand: '',
    product_name: '',
    medias: [],
    syndicated_review: false,
    syndicated_review_source: '',
    syndicated_review_source_url: '',
    translated_review: {},
  }
}

/** The fields a Published brand review and product review take alike from a Genesis review. */
function reviewFields(review: GenesisReview) {
  return {
    review_id: review.id_review,
    order_reference: review.order_ref,
    review_content: review.review,
    author_firstname: review.firstname,
    author_lastname: review.lastname,
    locale: review.language,
    review_rate: reviewRate(review),
    incentivization: 'none',
    is_verified: false,
    is_personal_data_disclosed: review.firstname !== '' || review.lastname !== '',
    order_date: review.order_date,
    review_date: review.review_date,
    publish_date: review.publish_date,
    moderations: review.moderation.map(fromOldModeration),
    extras: {},
  } satisfies Partial<BrandReview & ProductReview>
}

/**
 * The reviews of a Genesis `GET /website` answer as Published brand reviews. The answer's `count` and
 * `average` are left out: `brands.list` gives the brand's statistics.
 */
export function fromGenesisWebsiteResponse(
  response: GenesisWebsiteResponse,
  options: GenesisBrandReviewOptions = {},
): BrandReview[] {
  return response.reviews.map((review) => fromGenesisBrandReview(review, options))
}

/** A Genesis `POST /product` reviews answer, keyed by product, as the flat list `GET /products/reviews` answers. */
export function fromGenesisProductReviewsResponse(response: GenesisProductReviewsResponse): ProductReview[] {
  return Object.values(response).flatMap((reviews) => reviews.map(fromGenesisProductReview))
}

/**
 * The part of a `ProductRating` that a Genesis average carries: Genesis gives no per-star counts, EAN
 * or criteria.
 */
export type MigratedProductRating = Pick<ProductRating, 'product_variation_id' | 'average' | 'count_total'>

/** A Genesis product average (strings) as the numbers of a `ProductRating`. */
export function fromGenesisAverage(product: string, average: GenesisProductAverage): MigratedProductRating {
  return {
    product_variation_id: product,
    average: number(average.rate, 'rate'),
    count_total: count(average.count, 'count'),
  }
}

/**
 * A Genesis `POST /product` average answer as a list like `GET /products/ratings`: one entry per product
 * that has an aggregate, in answer order; products answered with `[]` are left out, as products without
 * reviews are in the Published answer.
 */
export function fromGenesisAveragesResponse(
  response: GenesisProductAveragesResponse,
): MigratedProductRating[] {
  return Object.entries(response).flatMap(([product, averages]) =>
    averages.map((average) => fromGenesisAverage(product, average)),
  )
}

/** What a Genesis static file says of the brand or of one shop, in Published names. */
export interface MigratedBrandRating extends Pick<BrandRating, 'shop_key' | 'count_total_since_creation'> {
  /** Average over every review; the Published API has one_year and five_year averages instead. */
  average: number
}

/** Parses the Genesis brand file (`infosite.txt`): one line `count;average`. */
export function parseGenesisBrandFile(text: string): GenesisBrandFile {
  const lines = contentLines(text)
  const [line] = lines
  if (line === undefined || lines.length !== 1) {
    throw unreadable(`the brand file must hold one line count;average, found ${lines.length} lines`)
  }
  const cells = line.text.split(';')
  if (cells.length !== 2) throw unreadable(`the brand file line must be count;average, got "${line.text}"`)
  return { review_count: count(cells[0], 'count'), average: number(cells[1], 'average') }
}

const SHOP_HEADER = ['id_shop', 'name_shop', 'review_number', 'rating', 'certificate_url'] as const

/**
 * Parses the Genesis shop file (`infoshops.txt`): the header `id_shop;name_shop;review_number;rating;certificate_url`
 * (its columns in any order and case), then one line per shop. Blank lines are skipped; a decimal comma is read as a point.
 */
export function parseGenesisShopsFile(text: string): GenesisShopLine[] {
  const [header, ...rows] = contentLines(text)
  if (header === undefined) throw unreadable('the shop file is empty: it must start with its header')
  const columns = header.text.split(';').map((name) => name.trim().toLowerCase())
  const index = Object.fromEntries(SHOP_HEADER.map((name) => [name, columns.indexOf(name)])) as Record<
    (typeof SHOP_HEADER)[number],
    number
  >
  const missing = SHOP_HEADER.filter((name) => index[name] === -1)
  if (missing.length > 0) throw unreadable(`the shop file header lacks ${missing.join(', ')}`)
  return rows.map(({ text: row, number: lineNumber }) => {
    const cells = row.split(';')
    if (cells.length !== columns.length) {
      throw unreadable(
        `line ${lineNumber} of the shop file has ${cells.length} values, expected ${columns.length}`,
      )
    }
    const cell = (name: (typeof SHOP_HEADER)[number]): string => (cells[index[name]] ?? '').trim()
    return {
      id_shop: cell('id_shop'),
      name_shop: cell('name_shop'),
      review_number: count(cell('review_number'), `review_number on line ${lineNumber}`),
      rating: number(cell('rating'), `rating on line ${lineNumber}`),
      certificate_url: cell('certificate_url'),
    }
  })
}

/**
 * The brand file as the brand's entry of `brands.list` (`shop_key` empty): its count as
 * `count_total_since_creation`, its all-time average apart (see {@link GENESIS_FILE_NOTES}).
 */
export function fromGenesisBrandFile(file: GenesisBrandFile): MigratedBrandRating {
  return { shop_key: '', count_total_since_creation: file.review_count, average: file.average }
}

/**
 * One line of the shop file as that shop's entry of `brands.list`: `id_shop`→`shop_key`,
 * `review_number`→`count_total_since_creation`; its name and certificate URL are dropped (see
 * {@link GENESIS_FILE_NOTES}).
 */
export function fromGenesisShopLine(line: GenesisShopLine): MigratedBrandRating {
  return { shop_key: line.id_shop, count_total_since_creation: line.review_number, average: line.rating }
}

function contentLines(text: string): { text: string; number: number }[] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\r|\n/)
    .map((line, i) => ({ text: line, number: i + 1 }))
    .filter((line) => line.text.trim() !== '')
}

function number(raw: string | undefined, name: string): number {
  const text = (raw ?? '').trim().replace(',', '.')
  const value = text === '' ? Number.NaN : Number(text)
  if (!Number.isFinite(value)) throw unreadable(`${name} must be a number, got "${raw ?? ''}"`)
  return value
}

function count(raw: string | undefined, name: string): number {
  const value = number(raw, name)
  if (!Number.isInteger(value) || value < 0) throw unreadable(`${name} must be a count, got "${raw ?? ''}"`)
  return value
}

function reviewRate(review: GenesisReview): ReviewRate {
  const rate = Number(review.rate)
  check(isIntegerIn(rate, 1, 5), 'rate', `of review ${review.id_review} must be 1 to 5, got "${review.rate}"`)
  return rate as ReviewRate
}

function unreadable(message: string): ValidationError {
  return new ValidationError([{ field: 'text', message }])
}
