/**
 * A small run of the `pnpm bench:scale` inject step (250 product pages, 2,500 reviews: more products
 * than one call summarizes, so that the account's review count is unknown, as at full scale): the API
 * calls stay within 5 % of the lower bound, and a second run after 300 new reviews makes at most
 * ceil(300/200) + 1 review calls and changes only the pages of the products that got them; the local
 * JSON files of the hand-written baselines hold every page's reviews, written at the lower bound of calls.
 * Nothing is asserted on time.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  HAND_WRITTEN_INDEX,
  readHandWrittenProduct,
  writeHandWrittenData,
} from './scale/hand-written-data.ts'
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

describe('the data of the hand-written baselines of bench:scale, small', () => {
  it('writes a file per page with its first page of reviews, at the lower bound of calls', async () => {
    const ids = productIds(PRODUCTS)
    const hand = join(dir, 'hand')
    await sandbox.takeStats()
    await writeHandWrittenData(sandbox.env, hand, ids)
    const { total, tokens } = callsOf(await sandbox.takeStats())
    expect(total).toBeLessThanOrEqual(lowerBound(REVIEWS + 300, PRODUCTS, tokens))
    expect((await readdir(hand)).sort()).toEqual(
      [...ids.map((id) => `${id}.json`), HAND_WRITTEN_INDEX].sort(),
    )
    const products = await Promise.all(ids.map((id) => readHandWrittenProduct(hand, id)))
    expect(products.every((product) => product.reviews.length <= 10)).toBe(true)
    expect(products.filter((product) => product.reviews.length > 0).length).toBeGreaterThan(0.8 * PRODUCTS)
    expect(products.some((product) => product.nextCursor !== null)).toBe(true)
  })
})
