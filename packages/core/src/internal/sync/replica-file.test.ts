import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { productReview } from '../../../../../test/fixtures/reviews.ts'
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
      expect(await refreshReplicaFromFile(replica, source)).toBe('copied')
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
})
