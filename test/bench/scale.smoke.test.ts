/**
 * A small run of the `pnpm bench:scale` inject step (250 product pages, 2,500 reviews: more products
 * than one call summarizes, so that the account's review count is unknown, as at full scale): the API
 * calls stay within 5 % of the lower bound, and a second run after 300 new reviews makes at most
 * ceil(300/200) + 1 review calls and changes only the pages of the products that got them. Nothing is
 * asserted on time.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  callsOf,
  type InjectRun,
  lowerBound,
  newReviews,
  productIds,
  runInject,
  type SandboxProcess,
  startSandboxProcess,
  writeProductPages,
} from './scale/lib.ts'

const PRODUCTS = 250
const REVIEWS = 2500

let sandbox: SandboxProcess
let dir: string
let first: InjectRun
let second: InjectRun
let added: Set<string>

beforeAll(async () => {
  sandbox = await startSandboxProcess({ products: PRODUCTS, reviews: REVIEWS, rateLimit: 0 })
  dir = await mkdtemp(join(tmpdir(), 'vr-scale-smoke-'))
  const ids = productIds(PRODUCTS)
  await writeProductPages(join(dir, 'site'), ids)
  first = await runInject(sandbox, join(dir, 'site'), join(dir, 'store.json'))
  const reviews = newReviews(ids, 300)
  added = new Set(reviews.map((review) => review.product_variation_id))
  await sandbox.addReviews(reviews)
  second = await runInject(sandbox, join(dir, 'site'), join(dir, 'store.json'))
}, 120_000)

afterAll(async () => {
  await sandbox?.close()
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

describe('the inject step of bench:scale, small', () => {
  it('makes at most 1.05 times the lower bound of API calls', () => {
    const { total, tokens } = callsOf(first.operations)
    expect(first.report.changedPages).toBeGreaterThan(0.8 * PRODUCTS)
    expect(total).toBeLessThanOrEqual(1.05 * lowerBound(REVIEWS, PRODUCTS, tokens))
  })

  it('makes at most ceil(300/200) + 1 review calls after 300 new reviews', () => {
    expect(second.operations['products.reviews.list']).toBeLessThanOrEqual(Math.ceil(300 / 200) + 1)
    expect(second.report.sync?.newReviews).toBe(300)
  })

  it('changes only the pages of the products that got new reviews', () => {
    expect(second.report.changedPages).toBe(added.size)
    expect(new Set(second.report.sync?.affectedProductIds)).toEqual(added)
  })
})
