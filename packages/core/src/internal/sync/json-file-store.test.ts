import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ProductReview } from '../../types/published.ts'
import { createJsonFileReviewStore } from './json-file-store.ts'

const review = (id: string, product: string) =>
  ({
    review_id: id,
    product_variation_id: product,
    publish_date: '2025-01-01',
    review_content: id,
  }) as ProductReview

const idle = { phase: 'idle' as const, newReviews: 0, updatedReviews: 0, affected: [] }

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
    await Promise.all([store.putMany([review('a', 'P1')]), store.putMany([review('b', 'P1')], idle)])
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

  it('names the file it refuses to take over', async () => {
    const path = join(dir, 'other.json')
    await writeFile(path, '[1, 2]')
    await expect(createJsonFileReviewStore(path).count()).rejects.toThrow(
      `${path} is not a review store file`,
    )
  })

  it('moves a file that is not valid JSON aside, warns once naming both files, and starts empty', async () => {
    const path = join(dir, 'reviews.json')
    const truncated =
      '{"format":"verified-reviews/review-store","version":1,"checkpoint":null,"reviews":[{"review_'
    await writeFile(path, truncated)
    const warn = vi.fn()
    const store = createJsonFileReviewStore(path, { logger: { warn } })
    expect(await store.count()).toBe(0)
    expect(await store.getCheckpoint()).toBeUndefined()
    const [aside] = (await readdir(dir)).filter((name) => name.startsWith('reviews.json.corrupt-'))
    expect(aside).toBeDefined()
    expect(await readFile(join(dir, aside ?? ''), 'utf8')).toBe(truncated)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toContain(`The review store ${path} is corrupt (it is not valid JSON`)
    expect(warn.mock.calls[0]?.[0]).toContain(`moved it aside to ${join(dir, aside ?? '')}`)
  })

  it('moves aside an empty file and a store file whose reviews are malformed', async () => {
    const empty = join(dir, 'empty.json')
    const malformed = join(dir, 'malformed.json')
    await writeFile(empty, '')
    await writeFile(malformed, '{"format":"verified-reviews/review-store","version":1,"reviews":[null]}')
    const warn = vi.fn()
    expect(await createJsonFileReviewStore(empty, { logger: { warn } }).count()).toBe(0)
    expect(await createJsonFileReviewStore(malformed, { logger: { warn } }).count()).toBe(0)
    expect(
      warn.mock.calls.map(
        ([message]) => /\((it is empty|its review 0 has no review_id)\)/.exec(message)?.[1],
      ),
    ).toEqual(['it is empty', 'its review 0 has no review_id'])
    expect((await readdir(dir)).sort()).toEqual([
      expect.stringMatching(/^empty\.json\.corrupt-/),
      expect.stringMatching(/^malformed\.json\.corrupt-/),
    ])
  })

  it('writes a fresh file over the corrupt one on the next change', async () => {
    const path = join(dir, 'reviews.json')
    await writeFile(path, '{')
    const store = createJsonFileReviewStore(path, { logger: { warn() {} } })
    await store.putMany([review('a', 'P1')])
    expect(await createJsonFileReviewStore(path).count()).toBe(1)
  })

  it('reads the file again after a read that failed, instead of failing for good', async () => {
    const path = join(dir, 'reviews.json')
    await mkdir(path)
    const store = createJsonFileReviewStore(path)
    await expect(store.count()).rejects.toMatchObject({ code: 'EISDIR' })
    await rm(path, { recursive: true })
    expect(await store.count()).toBe(0)
  })
})
