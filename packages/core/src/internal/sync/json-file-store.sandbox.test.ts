import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import { createJsonFileReviewStore } from './json-file-store.ts'
import { syncProductReviews } from './sync-reviews.ts'

const sb = sandboxForFile({ seed: 1 })
let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vr-corrupt-store-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('a JSON review store found corrupt', () => {
  it('is set aside, and the next sync is a full one that succeeds', async () => {
    const path = join(dir, 'product-reviews.json')
    // What a crash can leave on a file system that lost the end of the last write: had it been read, the
    // checkpoint would have made the next run an incremental one.
    const truncated =
      '{"format":"verified-reviews/review-store","version":1,"checkpoint":{"phase":"idle","watermark":"2030-01-01",' +
      '"completedAt":"2030-01-01T00:00:00.000Z","newReviews":0,"updatedReviews":0,"affected":[]},"reviews":[{"review_id":"r'
    await writeFile(path, truncated)

    const warn = vi.fn()
    const store = createJsonFileReviewStore(path, { logger: { warn } })
    const report = await syncProductReviews({ client: sb.client(), store })

    expect(report).toMatchObject({ mode: 'full', newReviews: 3000, calls: 15, resumed: false })
    expect(await createJsonFileReviewStore(path).count()).toBe(3000)
    const aside = (await readdir(dir)).filter((name) => name.startsWith('product-reviews.json.corrupt-'))
    expect(aside).toHaveLength(1)
    expect(await readFile(join(dir, aside[0] ?? ''), 'utf8')).toBe(truncated)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(path))
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(join(dir, aside[0] ?? '')))
  })
})
