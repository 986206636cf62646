import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { brandRating, brandReview, productReview } from '../../../../../test/fixtures/reviews.ts'
import { openSqliteReplica, refreshReplicaFromFile } from './replica-file.ts'

let directory: string
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'vr-replica-file-'))
})
afterEach(async () => {
  await rm(directory, { recursive: true, force: true })
})

describe('refreshReplicaFromFile', () => {
  it('copies a source written in the JSON text of earlier versions, its reviews in the stored form', async () => {
    const source = join(directory, 'build.sqlite')
    const { DatabaseSync } = await import('node:sqlite')
    const old = new DatabaseSync(source)
    old.exec(`CREATE TABLE reviews (id TEXT PRIMARY KEY, key TEXT NOT NULL, json TEXT NOT NULL,
                published INTEGER, rate INTEGER);
              CREATE TABLE reviews_checkpoint (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);`)
    const reviews = ['a', 'b', 'c'].map((id) =>
      productReview({ review_id: id, product_variation_id: 'P1', review_content: `Très bien ${id} 👍` }),
    )
    const insert = old.prepare('INSERT INTO reviews (id, key, json, published, rate) VALUES (?, ?, ?, ?, ?)')
    for (const review of reviews) {
      insert.run(
        review.review_id,
        'P1',
        JSON.stringify(review),
        Date.parse(review.publish_date),
        review.review_rate,
      )
    }
    old.prepare('INSERT INTO reviews_checkpoint (id, json) VALUES (1, ?)').run(
      JSON.stringify({
        phase: 'idle',
        newReviews: 3,
        updatedReviews: 0,
        completedAt: '2025-01-01T00:00:00Z',
      }),
    )
    old.close()

    const replica = openSqliteReplica(join(directory, 'replica.sqlite'))
    try {
      expect(await refreshReplicaFromFile(replica, source)).toEqual({
        outcome: 'copied',
        brands: 'no-source',
      })
      // A source without a brand part (a build without brandReviews) gets none: its files stay as they were.
      const read = new DatabaseSync(source, { readOnly: true })
      try {
        const tables = read.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all()
        expect(tables.map((row) => String(row.name)).filter((name) => name.startsWith('brand_'))).toEqual([])
      } finally {
        read.close()
      }
      expect(await replica.reviews.list('P1')).toEqual(reviews)
      const db = new DatabaseSync(replica.file, { readOnly: true })
      try {
        expect(db.prepare('SELECT DISTINCT typeof(review) AS type FROM reviews').all()).toEqual([
          { type: 'blob' },
        ])
      } finally {
        db.close()
      }
    } finally {
      await replica.close()
    }
  })

  it('brings the brand reviews, their checkpoint and the statistics with their fetch time along, each when newer', async () => {
    const source = join(directory, 'build.sqlite')
    const built = openSqliteReplica(source)
    const mark = (completedAt: string) => ({
      phase: 'idle' as const,
      newReviews: 0,
      updatedReviews: 0,
      affected: [],
      completedAt,
    })
    const brandReviews = [brandReview({ review_id: 'b1' }), brandReview({ review_id: 'b2', shop_key: '' })]
    await built.reviews.putMany([productReview({ review_id: 'p1' })], mark('2025-03-05T09:00:00Z'))
    await built.brands.reviews.putMany(brandReviews, mark('2025-03-05T09:01:00Z'))
    await built.brands.ratings.replaceAll(
      [brandRating(), brandRating({ shop_key: 'lyon' })],
      '2025-03-05T09:02:00Z',
    )
    await built.close()

    const replica = openSqliteReplica(join(directory, 'replica.sqlite'))
    try {
      // The server's sync of the products went past the build's; its brand part is older than the build's.
      await replica.reviews.putMany([productReview({ review_id: 'p2' })], mark('2025-03-06T00:00:00Z'))
      await replica.brands.reviews.putMany([brandReview({ review_id: 'old' })], mark('2025-03-01T00:00:00Z'))
      await replica.brands.ratings.replaceAll([brandRating({ shop_key: 'closed' })], '2025-03-01T00:00:00Z')
      expect(await refreshReplicaFromFile(replica, source)).toEqual({ outcome: 'current', brands: 'copied' })
      expect(await replica.reviews.has('p2')).toBe(true)
      expect(await replica.brands.reviews.count()).toBe(2)
      expect(await replica.brands.reviews.list('lyon')).toEqual([brandReviews[0]])
      expect((await replica.brands.reviews.getCheckpoint())?.completedAt).toBe('2025-03-05T09:01:00Z')
      expect(await replica.brands.ratings.fetchedAt()).toBe('2025-03-05T09:02:00Z')
      expect((await replica.brands.ratings.getMany(['lyon', 'closed']))[1]).toBeUndefined()
      expect((await replica.brands.ratings.getMany(['lyon']))[0]?.shop_key).toBe('lyon')
      // Again: every part is as new as the build's.
      expect(await refreshReplicaFromFile(replica, source)).toEqual({ outcome: 'current', brands: 'current' })
    } finally {
      await replica.close()
    }
  })
})
