import { appendFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ProductReview } from '../../types/published.ts'
import { createJsonFileReviewStore, openJsonFileReviewStore } from './json-file-store.ts'
import type { SyncCheckpoint } from './store.ts'

const review = (id: string, product: string, text = id) =>
  ({
    review_id: id,
    product_variation_id: product,
    publish_date: '2025-01-01T00:00:00.000Z',
    review_content: text,
  }) as ProductReview

const page = (n: number, size = 10) =>
  Array.from({ length: size }, (_, i) => review(`r${n}-${i}`, `P${n}`, 'x'.repeat(80)))

const during = (n: number, affected: string[] = [`P${n}`]): SyncCheckpoint => ({
  phase: 'full',
  cursor: `c${n}`,
  limit: 10,
  newReviews: (n + 1) * 10,
  updatedReviews: 0,
  affected,
})
const done: SyncCheckpoint = { phase: 'idle', newReviews: 0, updatedReviews: 0, affected: [] }

let dir: string
let path: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vr-review-journal-'))
  path = join(dir, 'reviews.json')
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** The `generation` of the file: which writing of it is on disk. */
async function generation(): Promise<string | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined)
  return text === undefined ? undefined : (JSON.parse(text) as { generation: string }).generation
}

describe('the JSON review store journal', () => {
  it('appends the pages of a run to the journal without rewriting the file', async () => {
    const store = createJsonFileReviewStore(path)
    await store.putMany(page(0), done)
    const file = await readFile(path, 'utf8')
    for (let n = 1; n <= 20; n++) await store.putMany(page(n), during(n))
    expect(await readFile(path, 'utf8')).toBe(file)
    expect((await readFile(`${path}.journal`, 'utf8')).trim().split('\n')).toHaveLength(21)
  })

  it('rewrites the file once when a run completes, and removes the journal', async () => {
    const store = createJsonFileReviewStore(path)
    for (let n = 0; n < 5; n++) await store.putMany(page(n), during(n))
    await store.putMany([], done)
    expect(await readdir(dir)).toEqual(['reviews.json'])
    const file = JSON.parse(await readFile(path, 'utf8')) as { reviews: unknown[]; checkpoint: unknown }
    expect(file.reviews).toHaveLength(50)
    expect(file.checkpoint).toEqual(done)
  })

  it('rewrites the file during a run only as the journal doubles it, a bounded number of times', async () => {
    const store = openJsonFileReviewStore<ProductReview>(
      path,
      {},
      { minCompaction: 4096, flushInterval: 1000 },
    )
    const writings = new Set<string | undefined>()
    for (let n = 0; n < 128; n++) {
      await store.putMany(page(n), during(n))
      writings.add(await readFile(path, 'utf8').catch(() => undefined))
    }
    // 128 pages of about 1.2 KB: rewritten at 4 KB, 8 KB, 16 KB... not once per page.
    expect(writings.size).toBeLessThanOrEqual(8)
    expect(await createJsonFileReviewStore(path).count()).toBe(1280)
  })

  it('resumes from the last page written when the process stops during a run', async () => {
    const store = createJsonFileReviewStore(path)
    await store.putMany(page(0), done)
    for (let n = 1; n <= 3; n++) await store.putMany(page(n), during(n))
    // A new process, as after a crash: nothing was closed nor flushed by hand.
    const reopened = createJsonFileReviewStore(path)
    expect(await reopened.getCheckpoint()).toEqual(during(3))
    expect(await reopened.count()).toBe(40)
  })

  it('replays affected ids written as additions to the previous line', async () => {
    const store = createJsonFileReviewStore(path)
    await store.putMany(page(0), done)
    await store.putMany(page(1), during(1, ['P1']))
    await store.putMany(page(2), during(2, ['P1', 'P2']))
    await store.putMany(page(3), during(3, ['P3', 'P1', 'P2']))
    const lines = (await readFile(`${path}.journal`, 'utf8')).trim().split('\n')
    expect(lines[3]).toContain('"affectedAdded":["P3"]')
    expect((await createJsonFileReviewStore(path).getCheckpoint())?.affected).toEqual(['P1', 'P2', 'P3'])
  })

  it('drops a line cut short at the end, with its reviews, and warns', async () => {
    const store = createJsonFileReviewStore(path)
    await store.putMany(page(0), done)
    await store.putMany(page(1), during(1))
    await appendFile(`${path}.journal`, '{"reviews":[{"review_id":"r2-0","product_variation_id":"P2"')
    const warn = vi.fn()
    const reopened = createJsonFileReviewStore(path, { logger: { warn } })
    expect(await reopened.getCheckpoint()).toEqual(during(1))
    expect(await reopened.has('r2-0')).toBe(false)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toContain('a line cut short')
    // Later lines land after the cut, where the next process reads them.
    await reopened.putMany(page(2), during(2))
    expect(await createJsonFileReviewStore(path).getCheckpoint()).toEqual(during(2))
  })

  it('ignores and removes a journal that follows another writing of the file', async () => {
    const store = createJsonFileReviewStore(path)
    await store.putMany(page(0), done)
    await store.putMany(page(1), during(1))
    const journal = await readFile(`${path}.journal`)
    await store.putMany([], done)
    // As after a crash between writing the file and removing the journal it holds.
    await writeFile(`${path}.journal`, journal)
    await writeFile(path, (await readFile(path, 'utf8')).replace(/"generation":"[^"]+"/, '"generation":"x"'))
    const reopened = createJsonFileReviewStore(path)
    expect(await reopened.count()).toBe(20)
    expect(await reopened.getCheckpoint()).toEqual(done)
    expect(await readdir(dir)).toEqual(['reviews.json'])
  })

  it('drops the journal of a file found corrupt, so that no checkpoint runs ahead of its reviews', async () => {
    const store = createJsonFileReviewStore(path)
    await store.putMany(page(0), done)
    await store.putMany(page(1), during(1))
    await writeFile(path, '{"format":"verified-reviews/review-store","version":1,"gener')
    const reopened = createJsonFileReviewStore(path, { logger: { warn() {} } })
    expect(await reopened.getCheckpoint()).toBeUndefined()
    expect(await reopened.count()).toBe(0)
  })

  it('writes a file that reads as one JSON document, one review per line', async () => {
    const store = createJsonFileReviewStore(path)
    await store.putMany([...page(0, 3)], done)
    const text = await readFile(path, 'utf8')
    expect(text.split('\n')).toHaveLength(6)
    expect((JSON.parse(text) as { reviews: ProductReview[] }).reviews.map((r) => r.review_id)).toEqual([
      'r0-0',
      'r0-1',
      'r0-2',
    ])
  })

  it('reads a file written on one line by an earlier version, and rewrites it on the next change', async () => {
    await writeFile(
      path,
      JSON.stringify({
        format: 'verified-reviews/review-store',
        version: 1,
        checkpoint: done,
        reviews: page(0),
      }),
    )
    const store = createJsonFileReviewStore(path)
    expect(await store.count()).toBe(10)
    await store.putMany(page(1), during(1))
    expect(await generation()).toBeDefined()
    expect(await createJsonFileReviewStore(path).count()).toBe(20)
  })

  it('reads back every review, whether it is in the file, in the journal or just written', async () => {
    const store = openJsonFileReviewStore<ProductReview>(
      path,
      {},
      { minCompaction: 4096, flushInterval: 1000 },
    )
    const written = new Map<string, ProductReview>()
    for (let n = 0; n < 40; n++) {
      const reviews = page(n).map((r, i) => ({ ...r, review_content: `${n}-${i} ${'é'.repeat(n)}` }))
      for (const r of reviews) written.set(r.review_id, r)
      await store.putMany(reviews, during(n))
      // A review stored again under the same id, in a later page: the newest copy is the one read.
      if (n > 0) {
        const again = { ...(written.get(`r${n - 1}-0`) as ProductReview), review_content: `again ${n}` }
        written.set(again.review_id, again)
        await store.putMany([again], during(n))
      }
    }
    for (const reader of [store, createJsonFileReviewStore<ProductReview>(path)]) {
      const all = await reader.all()
      expect(all).toHaveLength(written.size)
      for (const r of all) expect(r).toEqual(written.get(r.review_id))
      expect(await reader.list('P7')).toEqual(
        [...written.values()].filter((r) => r.product_variation_id === 'P7'),
      )
    }
  })

  it('keeps the file as it is when a run adds little to a large store', async () => {
    const store = createJsonFileReviewStore(path)
    for (let n = 0; n < 20; n++) await store.putMany(page(n), during(n))
    await store.putMany([], done)
    const before = await stat(path)
    await store.putMany(page(20, 2), during(20))
    await store.putMany([], done)
    expect((await stat(path)).mtimeMs).toBe(before.mtimeMs)
    expect(await createJsonFileReviewStore(path).count()).toBe(202)
  })
})
