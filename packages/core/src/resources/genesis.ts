import { rememberSecret } from '../internal/base/redact.ts'
import { genesisToken } from '../internal/base/sha256.ts'
import { Issues, isIntegerIn, isObject, isReferenceList } from '../internal/base/validate.ts'
import type { ClientContext } from '../internal/context/client-context.ts'
import { optionsFor } from '../internal/context/operation-options.ts'
import { joinUrl } from '../internal/settings/addresses.ts'
import { send } from '../internal/transport/http.ts'
import { invalidAnswer, jsonOf } from '../internal/transport/json-body.ts'
import type {
  GenesisBrandFile,
  GenesisProductAveragesResponse,
  GenesisProductReviewsResponse,
  GenesisRateFilter,
  GenesisShopLine,
  GenesisWebsiteResponse,
} from '../types/genesis.ts'
import type {
  GenesisProductAverageParams,
  GenesisProductReviewsParams,
  GenesisWebsiteChoice,
  GenesisWebsiteGetParams,
} from '../types/params.ts'
import type { RequestOptions } from '../types/request-options.ts'
import { parseGenesisBrandFile, parseGenesisShopsFile } from './genesis-files.ts'
import { Resource } from './resource.ts'

// The parameters each call takes: the website, the language site and the rate filter, then its own.
const SHARED_MEMBERS = ['websiteId', 'plateforme', 'field', 'sign', 'compare']
const AVERAGE_MEMBERS = [...SHARED_MEMBERS, 'product']
const PRODUCT_MEMBERS = [...AVERAGE_MEMBERS, 'limit', 'offset', 'order']
const WEBSITE_MEMBERS = [...SHARED_MEMBERS, 'format', 'range', 'p', 'order_by', 'order_type', 'iso_code']
const SIGNS = ['=', '!=', '<', '<=', '>', '>=']

function checkRateFilter(params: GenesisRateFilter, issues: Issues): void {
  const given = [params.field, params.sign, params.compare].filter((value) => value !== undefined).length
  if (given === 0) return
  if (given !== 3) issues.add('field', 'field, sign and compare go together')
  if (params.field !== undefined && params.field !== 'rate') issues.add('field', "must be 'rate'")
  if (params.sign !== undefined && !SIGNS.includes(params.sign))
    issues.add('sign', `must be one of ${SIGNS.join(' ')}`)
  if (params.compare !== undefined && !isIntegerIn(Number(params.compare), 1, 5)) {
    issues.add('compare', 'must be a rating from 1 to 5')
  }
}

function checkInteger(value: unknown, field: string, min: number, max: number, issues: Issues): void {
  if (value !== undefined && !isIntegerIn(value, min, max))
    issues.add(field, `must be an integer from ${min} to ${max}`)
}

function checkProducts(product: unknown, issues: Issues): void {
  if (!isReferenceList(product, 200))
    issues.add('product', 'must be an array of 1 to 200 non-empty product references')
}

/** The website asked about: the parameter, else the client option. */
function websiteOf(context: ClientContext, params: GenesisWebsiteChoice | undefined, issues: Issues): string {
  const websiteId = params?.websiteId ?? context.websiteId
  if (websiteId === undefined || websiteId === '') {
    issues.add('websiteId', 'is required: pass it or set the client option websiteId')
  }
  return websiteId ?? ''
}

function requireSecret(context: ClientContext, issues: Issues): void {
  if (context.genesisSecret === undefined || context.genesisSecret === '') {
    issues.add(
      'genesisSecret',
      'is required: set the client option genesisSecret or VERIFIED_REVIEWS_GENESIS_SECRET',
    )
  }
}

/**
 * The address of `path` with the website, its daily token and `members` in the query, as Genesis wants
 * them. The token and the secret are remembered as secrets, so that no error, event or cache entry shows them.
 */
async function signedUrl(
  context: ClientContext,
  path: string,
  websiteId: string,
  members = {},
): Promise<string> {
  const secret = context.genesisSecret as string
  rememberSecret(secret)
  const token = await genesisToken(websiteId, secret)
  rememberSecret(token)
  const query = new URLSearchParams({ idWebsite: websiteId, token })
  for (const [key, value] of Object.entries(members)) if (value !== undefined) query.set(key, String(value))
  return `${joinUrl(context.addresses.genesisUrl, path)}?${query}`
}

function withoutWebsite<T extends GenesisWebsiteChoice>(params: T): Omit<T, 'websiteId'> {
  const { websiteId: _, ...rest } = params
  return rest
}

/** Brand and shop reviews of the Genesis API (`GET /website`). */
export class GenesisWebsite extends Resource {
  /** One page of brand and shop reviews. Replaced by `brands.reviews.list` (or `brands.list` for aggregates). */
  async get(
    params: GenesisWebsiteGetParams = {},
    callOptions?: RequestOptions,
  ): Promise<GenesisWebsiteResponse> {
    const context = this.context
    const issues = new Issues()
    const websiteId = websiteOf(context, params, issues)
    requireSecret(context, issues)
    issues.unknownMembers(params, WEBSITE_MEMBERS)
    checkInteger(params.range, 'range', 1, 200, issues)
    checkInteger(params.p, 'p', 1, Number.MAX_SAFE_INTEGER, issues)
    checkRateFilter(params, issues)
    issues.throwIfAny()
    const options = optionsFor(context, 'genesis.website.get', params, callOptions)
    const url = await signedUrl(context, 'website', websiteId, withoutWebsite(params))
    const answer = await send(context.settings, { service: context.genesis, method: 'GET', url }, options)
    const body = jsonOf(answer, 'genesis')
    if (!isObject(body) || !Array.isArray(body.reviews))
      throw invalidAnswer(answer, 'genesis', 'The answer has no reviews array.')
    return body as unknown as GenesisWebsiteResponse
  }
}

/** Product reviews and averages of the Genesis API (`POST /product`). */
export class GenesisProduct extends Resource {
  /** Reviews of each product, keyed by reference (`[]` for none). Replaced by `products.reviews.list`. */
  reviews(
    params: GenesisProductReviewsParams,
    options?: RequestOptions,
  ): Promise<GenesisProductReviewsResponse> {
    const issues = new Issues()
    issues.unknownMembers(params ?? {}, PRODUCT_MEMBERS)
    checkInteger(params?.limit, 'limit', 1, 200, issues)
    checkInteger(params?.offset, 'offset', 0, Number.MAX_SAFE_INTEGER, issues)
    return this.#post('reviews', params, issues, options)
  }

  /** One aggregate per product, keyed by reference (`[]` for none). Replaced by `products.ratings.list`. */
  average(
    params: GenesisProductAverageParams,
    options?: RequestOptions,
  ): Promise<GenesisProductAveragesResponse> {
    const issues = new Issues()
    issues.unknownMembers(params ?? {}, AVERAGE_MEMBERS)
    return this.#post('average', params, issues, options)
  }

  async #post<T>(
    kind: 'reviews' | 'average',
    params: GenesisProductReviewsParams | GenesisProductAverageParams,
    issues: Issues,
    callOptions: RequestOptions | undefined,
  ): Promise<T> {
    const context = this.context
    const websiteId = websiteOf(context, params, issues)
    requireSecret(context, issues)
    checkProducts(params?.product, issues)
    checkRateFilter(params ?? {}, issues)
    issues.throwIfAny()
    const options = optionsFor(context, `genesis.product.${kind}`, params as never, callOptions)
    const url = await signedUrl(context, 'product', websiteId)
    const body = JSON.stringify({ query: kind, ...withoutWebsite(params), idWebsite: websiteId })
    const answer = await send(
      context.settings,
      {
        service: context.genesis,
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        body,
      },
      options,
    )
    const data = jsonOf(answer, 'genesis')
    if (!isObject(data) || !Object.values(data).every(Array.isArray)) {
      throw invalidAnswer(answer, 'genesis', 'The answer is not an object of arrays keyed by product.')
    }
    return data as T
  }
}

/** The static files of the Genesis API (public, no token). */
export class GenesisStatic extends Resource {
  /** The brand file (`infosite.txt`): review count and average. Replaced by `brands.list`. */
  async brand(params?: GenesisWebsiteChoice, options?: RequestOptions): Promise<GenesisBrandFile> {
    return this.#read(params, 'infosite.txt', options, parseGenesisBrandFile)
  }

  /** The shop file (`infoshops.txt`), one entry per shop. Replaced by `brands.list` with `shop_key`. */
  async shops(params?: GenesisWebsiteChoice, options?: RequestOptions): Promise<GenesisShopLine[]> {
    return this.#read(params, 'infoshops.txt', options, parseGenesisShopsFile)
  }

  async #read<T>(
    params: GenesisWebsiteChoice | undefined,
    file: 'infosite.txt' | 'infoshops.txt',
    callOptions: RequestOptions | undefined,
    parse: (text: string) => T,
  ): Promise<T> {
    const context = this.context
    const issues = new Issues()
    const websiteId = websiteOf(context, params, issues)
    issues.unknownMembers(params ?? {}, ['websiteId'])
    issues.throwIfAny()
    const operation = file === 'infosite.txt' ? 'genesis.static.brand' : 'genesis.static.shops'
    const options = optionsFor(context, operation, params ?? {}, callOptions)
    const url = joinUrl(context.addresses.genesisUrl, `static/${encodeURIComponent(websiteId)}/${file}`)
    const answer = await send(
      context.settings,
      { service: context.genesis, method: 'GET', url, headers: { accept: 'text/plain' } },
      options,
    )
    try {
      return parse(answer.text)
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause)
      throw invalidAnswer(answer, 'genesis', `The static file ${file} cannot be read: ${reason}.`, cause)
    }
  }
}

/** The Genesis API: its token is derived each day from the website id and `genesisSecret`. */
export class Genesis {
  /** Brand and shop reviews. */
  readonly website: GenesisWebsite
  /** Product reviews and averages. */
  readonly product: GenesisProduct
  /** The brand and shop static files. */
  readonly static: GenesisStatic

  /** @internal */
  constructor(context: ClientContext) {
    this.website = new GenesisWebsite(context)
    this.product = new GenesisProduct(context)
    this.static = new GenesisStatic(context)
  }
}
