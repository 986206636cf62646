import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ReviewsCatalog } from '../catalog/local.ts'
import { injectProductJsonLd } from './inject-directory.ts'

const { clobber } = vi.hoisted(() => ({ clobber: { next: undefined as string | undefined } }))

// Lets a test play another process that rewrites a page between the injector's write and its check.
vi.mock('../write-atomically.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../write-atomically.ts')>()
  return {
    writeAtomically: async (...args: Parameters<typeof original.writeAtomically>) => {
      await original.writeAtomically(...args)
      if (clobber.next !== undefined) await writeFile(args[0], clobber.next)
    },
  }
})

const catalog: ReviewsCatalog = {
  reviews: async () => [],
  syncReport: async () => undefined,
  ratings: async (ids) =>
    new Map(
      ids.map((id) => [
        id,
        { average: 4, count_total: 1, count_5: 0, count_4: 1, count_3: 0, count_2: 0, count_1: 0 },
      ]),
    ),
  summaries: async () => new Map(),
  productPage: async () => ({ summary: undefined, reviews: [], nextCursor: undefined }),
  report: async () => ({
    mode: 'named',
    reviews: 0,
    newReviews: 0,
    products: 1,
    calls: { reviews: 0, summaries: 0 },
    lowerBound: 0,
    estimate: { named: 0, sync: undefined },
  }),
  calls: () => ({ reviews: 0, products: 0 }),
}

const PAGE =
  '<!doctype html><html><head><meta name="verified-reviews:product" content="SKU-1"><title>Pull &eacute;t&eacute;</title></head><body></body></html>'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vr-inject-dir-'))
  clobber.next = undefined
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

function run() {
  return injectProductJsonLd({
    dir,
    site: 'https://shop.example/',
    catalog,
    maxReviews: 0,
    logger: { warn() {} },
  })
}

describe('injectProductJsonLd writing pages', () => {
  it("keeps a rewritten page's permissions and leaves no temporary file", async () => {
    await writeFile(join(dir, 'a.html'), PAGE)
    await chmod(join(dir, 'a.html'), 0o640)
    expect((await run()).changedPages).toBe(1)
    expect((await stat(join(dir, 'a.html'))).mode & 0o777).toBe(0o640)
    expect(await readdir(dir)).toEqual(['a.html'])
  })

  it('names the product after the decoded title', async () => {
    await writeFile(join(dir, 'a.html'), PAGE)
    await run()
    expect(await readFile(join(dir, 'a.html'), 'utf8')).toContain('"name":"Pull été"')
  })

  it('reports a page that does not hold the markup when read back after the write', async () => {
    await writeFile(join(dir, 'a.html'), PAGE)
    clobber.next = PAGE
    const report = await run()
    expect(report.failedPages).toEqual([
      {
        file: 'a.html',
        reason:
          'checked after writing: the file read back is not what was written (did another process change it?)',
      },
    ])
  })

  it('skips a marked page in windows-1252 and leaves its bytes', async () => {
    const bytes = Buffer.from(PAGE.replace('<head>', '<head><meta charset="windows-1252">'), 'latin1')
    await writeFile(join(dir, 'a.html'), bytes)
    const report = await run()
    expect(report.skippedPages).toEqual([
      {
        file: 'a.html',
        reason: 'the page declares the windows-1252 encoding; only UTF-8 pages are rewritten',
      },
    ])
    expect((await readFile(join(dir, 'a.html'))).equals(bytes)).toBe(true)
  })
})
