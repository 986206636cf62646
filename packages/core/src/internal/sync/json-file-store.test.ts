import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ProductReview } from '../../types/published.ts'
import { createJsonFileReviewStore } from './json-file-store.ts'

const review = (id: string, product: string) =>
  ({
    review_id: id,
    product_variation_id: product,
    publish_date: '2025-01-01',
    review_content: id,
  }) as ProductReview

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vr-review-store-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('createJsonFileReviewStore', () => {
  it('treats a missing file as an empty store', async () => {
    const store = createJsonFileReviewStore(join(dir, 'reviews.json'))
    expect(await store.count()).toBe(0)
    expect(await store.getCheckpoint()).toBeUndefined()
  })

  it('keeps reviews and checkpoint for the next process', async () => {
    const path = join(dir, 'nested', 'reviews.json')
    const checkpoint = { phase: 'idle' as const, newReviews: 2, updatedReviews: 0, affected: ['P1', 'P2'] }
    await createJsonFileReviewStore(path).putMany([review('a', 'P1'), review('b', 'P2')], checkpoint)
    const reopened = createJsonFileReviewStore(path)
    expect(await reopened.keys()).toEqual(['P1', 'P2'])
    expect(await reopened.getCheckpoint()).toEqual(checkpoint)
  })

  it('leaves no temporary file behind', async () => {
    const store = createJsonFileReviewStore(join(dir, 'reviews.json'))
    await Promise.all([store.putMany([review('a', 'P1')]), store.putMany([review('b', 'P1')])])
    expect(await readdir(dir)).toEqual(['reviews.json'])
  })

  it('writes the last state when changes overlap', async () => {
    const path = join(dir, 'reviews.json')
    const store = createJsonFileReviewStore(path)
    await Promise.all([store.putMany([review('a', 'P1')]), store.putMany([review('b', 'P1')])])
    expect(await createJsonFileReviewStore(path).count()).toBe(2)
  })

  it('refuses to take over a file it did not write', async () => {
    const path = join(dir, 'other.json')
    await writeFile(path, '{"something":"else"}')
    await expect(createJsonFileReviewStore(path).count()).rejects.toThrow(/not a review store file/)
    expect(await readFile(path, 'utf8')).toBe('{"something":"else"}')
  })
})
