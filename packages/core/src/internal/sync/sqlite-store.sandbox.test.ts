import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import { createMemoryReviewStore } from './memory-store.ts'
import { createSqliteReviewStore } from './sqlite-store.ts'
import { syncProductReviews } from './sync-reviews.ts'

const sb = sandboxForFile({ seed: 1 })
let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vr-sqlite-sync-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('a SQLite review store', () => {
  it('takes over a JSON file store a sync filled, and the next sync is incremental', async () => {
    const json = join(dir, 'product-reviews.json')
    const synced = createMemoryReviewStore()
    const first = await syncProductReviews({ client: sb.client(), store: synced })
    expect(first).toMatchObject({ mode: 'full', newReviews: 3000 })
    // The file as the JSON file store of earlier versions wrote it as a whole.
    const checkpoint = await synced.getCheckpoint()
    const reviews = await synced.all()
    await writeFile(
      json,
      JSON.stringify({ format: 'verified-reviews/review-store', version: 1, checkpoint, reviews }),
    )

    const store = createSqliteReviewStore(join(dir, 'reviews.sqlite'), { importJsonFileStore: json })
    try {
      const next = await syncProductReviews({ client: sb.client(), store })
      expect(next).toMatchObject({ mode: 'incremental', newReviews: 0, calls: 1 })
      expect(await store.count()).toBe(3000)
      expect((await readdir(dir)).filter((name) => name.startsWith('product-reviews.json'))).toEqual([])
    } finally {
      await store.close()
    }
  })

  it('syncs fully, then incrementally, from a second store over the same file', async () => {
    const file = join(dir, 'reviews.sqlite')
    const writer = createSqliteReviewStore(file)
    const reader = createSqliteReviewStore(file)
    try {
      expect(await syncProductReviews({ client: sb.client(), store: writer })).toMatchObject({
        mode: 'full',
        newReviews: 3000,
        calls: 15,
      })
      expect(await syncProductReviews({ client: sb.client(), store: reader })).toMatchObject({
        mode: 'incremental',
        calls: 1,
      })
    } finally {
      await Promise.all([writer.close(), reader.close()])
    }
  })
})
