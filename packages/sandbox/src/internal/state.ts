import { randomBytes } from 'node:crypto'
import { CatalogueIndex } from './catalogue-index.ts'
import type { Audience, Operation, SandboxSettings, SandboxState } from './context.ts'
import { FaultInjector } from './faults.ts'
import { Random } from './random.ts'
import { RateLimiter } from './rate-limit.ts'
import { generateDataset, type SeedContext } from './seed.ts'
import type { BrandReview, Product, ProductReview, Shop, StoredPurchaseEvent } from './types.ts'

interface TokenRecord {
  audience: Audience
  clientId: string
  expiresAt: number
}

/** Statistics as `GET /__sandbox/stats` answers them. */
export interface Stats {
  total: number
  operations: Partial<Record<Operation, number>>
  /** Requests of `total` refused with a 429 for going past `rateLimit` (injected faults aside). */
  rateLimited: number
  /**
   * Milliseconds during which the sandbox was serving at least one request of `total`: from its arrival
   * to the end of its answer (an injected latency included), overlapping requests counted once. The
   * API's own time, as a client's clock cannot tell it apart from its own work: an answer that arrives
   * while the client is busy waits there, on the client's time, not the API's.
   */
  servingMs: number
}

/**
 * Everything a running sandbox holds: the seeded data (and what was added since), tokens,
 * statistics, fault rules and rate-limit windows. `reset()` returns it to the seeded state in
 * place, so the arrays routes hold stay the ones served.
 */
export class SandboxStore implements SandboxState {
  readonly settings: SandboxSettings
  readonly products: Product[] = []
  readonly productReviews: ProductReview[] = []
  readonly brandReviews: BrandReview[] = []
  readonly shops: Shop[] = []
  readonly purchaseEvents: StoredPurchaseEvent[] = []
  readonly faults: FaultInjector
  readonly rateLimiter: RateLimiter
  /** Product codes in use, so that products added later get codes of their own. */
  readonly usedCodes = new Set<string>()
  readonly now: () => number
  /** Indexes over the products and product reviews; a new one on every reset. */
  index: CatalogueIndex

  #tokens = new Map<string, TokenRecord>()
  #stats = new Map<Operation, number>()
  #rateLimited = 0
  /** Requests being served, since when, and the serving time counted so far. */
  #serving = { inFlight: 0, since: 0, ms: 0 }
  #uuids: Random
  #additions: Random
  #lastPublish = 0

  constructor(settings: SandboxSettings, now: () => number = Date.now) {
    this.settings = settings
    this.now = now
    this.faults = new FaultInjector(settings.seed)
    this.rateLimiter = new RateLimiter(settings.rateLimit, now)
    this.#uuids = new Random(settings.seed, 'uuid')
    this.#additions = new Random(settings.seed, 'additions')
    this.index = new CatalogueIndex(this.products, this.productReviews)
    this.reset()
  }

  get seedContext(): SeedContext {
    const { seed, websiteId, organizationName, products, reviews } = this.settings
    return { seed, websiteId, organizationName, products, reviews }
  }

  /** The generator of data added through `/__sandbox/`; restarted by a reset. */
  get additionsRandom(): Random {
    return this.#additions
  }

  /** Back to the seeded state: data, purchase events, tokens, statistics, faults, rate windows. */
  reset(): void {
    const data = generateDataset(this.seedContext)
    replaceAll(this.products, data.products)
    replaceAll(this.productReviews, data.productReviews)
    replaceAll(this.brandReviews, data.brandReviews)
    replaceAll(this.shops, data.shops)
    this.index = new CatalogueIndex(this.products, this.productReviews)
    this.purchaseEvents.splice(0, Infinity)
    this.usedCodes.clear()
    for (const p of this.products) {
      for (const code of [p.product_ean, p.product_upc, p.product_jan, p.product_sku, p.product_mpn])
        this.usedCodes.add(code)
    }
    this.#lastPublish = 0
    for (const r of this.productReviews)
      this.#lastPublish = Math.max(this.#lastPublish, Date.parse(r.publish_date))
    for (const r of this.brandReviews)
      this.#lastPublish = Math.max(this.#lastPublish, Date.parse(r.publish_date))
    this.#tokens.clear()
    this.clearStats()
    this.faults.clear()
    this.rateLimiter.clear()
    this.#uuids = new Random(this.settings.seed, 'uuid')
    this.#additions = new Random(this.settings.seed, 'additions')
  }

  uuid(): string {
    return this.#uuids.uuid()
  }

  /**
   * The publication time of a review added now: the current time, or 1 ms after the latest
   * publication when that is later, so every addition is strictly the newest.
   */
  nextPublishTime(): number {
    this.#lastPublish = Math.max(this.now(), this.#lastPublish + 1)
    return this.#lastPublish
  }

  issueToken(audience: Audience, clientId: string): { accessToken: string; expiresIn: number } {
    const now = this.now()
    for (const [token, record] of this.#tokens)
      if (record.expiresAt < now - 3_600_000) this.#tokens.delete(token)
    const accessToken = randomBytes(24).toString('base64url')
    this.#tokens.set(accessToken, { audience, clientId, expiresAt: now + this.settings.tokenTtl * 1000 })
    return { accessToken, expiresIn: this.settings.tokenTtl }
  }

  tokenAudience(token: string): Audience | undefined {
    const record = this.#tokens.get(token)
    return record && record.expiresAt > this.now() ? record.audience : undefined
  }

  /** The client a token was issued to, live or expired; undefined for an unknown token. */
  tokenClient(token: string): string | undefined {
    return this.#tokens.get(token)?.clientId
  }

  expireTokens(): void {
    const now = this.now()
    for (const record of this.#tokens.values()) record.expiresAt = Math.min(record.expiresAt, now)
  }

  count(operation: Operation): void {
    this.#stats.set(operation, (this.#stats.get(operation) ?? 0) + 1)
  }

  /** Starts the serving time of one counted request; the function it returns ends it (once). */
  serve(): () => void {
    const serving = this.#serving
    if (serving.inFlight++ === 0) serving.since = performance.now()
    let ended = false
    return () => {
      if (ended) return
      ended = true
      if (--serving.inFlight === 0) serving.ms += performance.now() - serving.since
    }
  }

  /** Counts one request refused for going past the rate limit. */
  countRateLimited(): void {
    this.#rateLimited++
  }

  stats(): Stats {
    const operations: Partial<Record<Operation, number>> = {}
    let total = 0
    for (const [operation, n] of [...this.#stats].sort(([a], [b]) => (a < b ? -1 : 1))) {
      operations[operation] = n
      total += n
    }
    const serving = this.#serving
    const current = serving.inFlight > 0 ? performance.now() - serving.since : 0
    return { total, operations, rateLimited: this.#rateLimited, servingMs: serving.ms + current }
  }

  clearStats(): void {
    this.#stats.clear()
    this.#rateLimited = 0
    // Requests still being served count from now on.
    this.#serving.ms = 0
    this.#serving.since = performance.now()
  }
}

/** Replaces the items of an array in place (a spread of a large catalogue would overflow the stack). */
function replaceAll<T>(target: T[], items: readonly T[]): void {
  target.length = 0
  for (const item of items) target.push(item)
}
