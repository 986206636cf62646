import { VerifiedReviewsError } from '../base/errors.ts'

/**
 * The version of the stored form of a review that {@link StoredReviewCodec.encode} writes: the first
 * byte of every stored review. Version 1 is the review's JSON text compressed by raw deflate (RFC 1951,
 * no zlib or gzip header) with {@link STORED_REVIEW_DICTIONARY_V1} as its preset dictionary.
 */
export const STORED_REVIEW_VERSION = 1

/**
 * The preset dictionary of version 1 of the stored form: the keys of the reviews the API sends (a
 * product review in the API's order and in the replica's kept order, a brand review, a reply, an image,
 * a criterion) and the values that recur in every account (dates' shape, booleans, the incentivizations,
 * the languages). Deflate finds the keys here instead of spelling them out in each review, which is
 * what a review of 1 KB spends most of its redundancy on. No account's text is in it. It never changes:
 * the reviews stored in version 1 need it to be read; another dictionary is another version.
 */
export const STORED_REVIEW_DICTIONARY_V1 =
  // A brand review, then a product review in the API's order (the whole form), then the kept form (the
  // most common, nearest the data: deflate reaches the end of a dictionary with the shortest distances).
  '{"review_id":"","order_reference":"","shop_key":"","review_content":"","author_firstname":"",' +
  '"author_lastname":"","locale":"","website_id":"","review_rate":1,"incentivization":"gifted",' +
  '"is_verified":false,"is_personal_data_disclosed":true,"order_date":"","review_date":"","publish_date":"",' +
  '"moderations":[],"extras":{}}' +
  '{"review_id":"","author_firstname":"","author_lastname":"","is_personal_data_disclosed":false,' +
  '"locale":"","review_date":"","publish_date":"","order_date":"","review_content":"","review_rate":2,' +
  '"order_reference":"","order_id":"","product_variation_id":"","product_ean":"","product_upc":"",' +
  '"product_jan":"","product_sku":"","product_mpn":"","product_brand":"","product_name":"",' +
  '"is_verified":true,"medias":[],"incentivization":"compensated","syndicated_review":false,' +
  '"syndicated_review_source":"","syndicated_review_source_url":"","translated_review":{"bg":"","cs":"",' +
  '"de":"","el":"","en":"","es":"","fr":"","it":"","nl":"","pl":"","pt":"","sk":"","tr":""},' +
  '"moderations":[],"extras":{}}' +
  '{"comment":"","date":"","origin":"merchant","origin_type":"moderator","translated_comment":{}}' +
  '{"type":"IMAGE","small":"https://","medium":"https://","large":"https://"}' +
  '{"display_name":"","label":"","type":"S","value":""}' +
  '{"review_id":"","product_variation_id":"","product_name":"","publish_date":"","review_date":"",' +
  '"review_rate":3,"author_firstname":"","author_lastname":"","is_personal_data_disclosed":true,' +
  '"locale":"","review_content":"","is_verified":false,"incentivization":"spontaneous",' +
  '"syndicated_review":true,"syndicated_review_source":"","syndicated_review_source_url":"https://",' +
  '"medias":[{"type":"IMAGE","small":"https://","medium":"https://","large":"https://"}],' +
  '"extras":{"":{"display_name":"","label":"","type":"I1","value":4}},' +
  '"translated_review":{"de":"","en":"","fr":""},' +
  '"moderations":[{"comment":"","date":"2025-01-01T00:00:00.000Z","translated_comment":{"en":""}}]}' +
  '{"review_id":"00000000-0000-4000-8000-000000000000","product_variation_id":"","product_name":"",' +
  '"publish_date":"2025-01-01T00:00:00.000Z","review_date":"2025-01-01T00:00:00.000Z","review_rate":5,' +
  '"author_firstname":"","author_lastname":"","is_personal_data_disclosed":false,"locale":"en_GB",' +
  '"review_content":"","is_verified":true,"incentivization":"none","syndicated_review":false,' +
  '"translated_review":{"'

/**
 * Reads and writes a review in its stored form: what the SQLite and Redis review stores hold of each
 * review, a quarter to a half of its JSON's bytes.
 *
 * The stored form, version {@link STORED_REVIEW_VERSION}: one byte `0x01`, then the review's JSON text
 * (UTF-8) compressed by raw deflate (RFC 1951) with a window of 8 KiB (`windowBits` 13) and the preset
 * dictionary {@link STORED_REVIEW_DICTIONARY_V1}. Any other first byte is another version, refused. Reading also
 * takes the JSON text that earlier versions of the stores wrote (a string, or its UTF-8 bytes, starting
 * with `{`), so a store keeps reading the reviews it held before and rewrites each in the stored form
 * when a sync writes it again.
 */
export interface StoredReviewCodec {
  /**
   * The stored form of a review, given its JSON text (the API's own text, as a string or its UTF-8
   * bytes, or `JSON.stringify` of the review).
   */
  encode(json: string | Uint8Array): Uint8Array
  /** The review a stored form holds: `JSON.parse` of the very text that was encoded. */
  decode<R>(stored: string | Uint8Array): R
}

/** The window of version 1's deflate: 2^13 bytes, what its inflate is given. */
export const STORED_REVIEW_WINDOW_BITS = 13

/** The level of version 1's deflate (zlib's best compression). */
export const STORED_REVIEW_LEVEL = 9

/** Bytes that start the JSON text of a review (an object, maybe after white space). */
const JSON_START = new Set([0x7b, 0x20, 0x09, 0x0a, 0x0d])

/**
 * The {@link StoredReviewCodec}: `node:zlib` is loaded here, on first use, so the entries that import
 * this also load where there is none (edge runtimes).
 */
export async function loadStoredReviewCodec(): Promise<StoredReviewCodec> {
  return import('node:zlib').then(({ deflateRawSync, inflateRawSync }) => {
    const dictionary = Buffer.from(STORED_REVIEW_DICTIONARY_V1)
    // A window of 8 KiB holds the dictionary and a review of 5 KB: a larger one compresses reviews no
    // better, and costs each call more to set up.
    const deflate = { level: STORED_REVIEW_LEVEL, windowBits: STORED_REVIEW_WINDOW_BITS, dictionary }
    const inflate = { windowBits: STORED_REVIEW_WINDOW_BITS, dictionary }
    const decoder = new TextDecoder()
    return {
      encode(json) {
        const body = deflateRawSync(json, deflate)
        const stored = new Uint8Array(body.length + 1)
        stored[0] = STORED_REVIEW_VERSION
        stored.set(body, 1)
        return stored
      },
      decode<R>(stored: string | Uint8Array): R {
        if (typeof stored === 'string') return JSON.parse(stored) as R
        const version = stored[0]
        if (version === STORED_REVIEW_VERSION) {
          return JSON.parse(decoder.decode(inflateRawSync(stored.subarray(1), inflate))) as R
        }
        if (version !== undefined && JSON_START.has(version)) return JSON.parse(decoder.decode(stored)) as R
        throw new VerifiedReviewsError(
          `A stored review is in a form this version cannot read (version byte ${version ?? 'none'}): ` +
            'a newer version of @verified-reviews wrote it, or it is damaged',
        )
      },
    }
  })
}
