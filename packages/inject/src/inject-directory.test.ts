import { unlinkSync } from 'node:fs'
import { chmod, mkdtemp, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ratingsOnlyCatalog } from '../../../test/fixtures/ratings-only-catalog.ts'
import { type InjectProductJsonLdOptions, injectProductJsonLd } from './inject-directory.ts'

const { clobber } = vi.hoisted(() => ({ clobber: { next: undefined as string | undefined } }))

// Lets a test play another process that rewrites a page between the injector's write and its check.
vi.mock('./write-atomically.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('./write-atomically.ts')>()
  return {
    writeAtomically: async (...args: Parameters<typeof original.writeAtomically>) => {
      await original.writeAtomically(...args)
      if (clobber.next !== undefined) await writeFile(args[0], clobber.next)
    },
  }
})

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

function run(options: Partial<InjectProductJsonLdOptions> = {}) {
  return injectProductJsonLd({
    dir,
    site: 'https://shop.example/',
    catalog: ratingsOnlyCatalog,
    maxReviews: 0,
    logger: { warn() {} },
    ...options,
  })
}

/** A product page of `sku`, with `head` at the end of its head. */
function productPage(sku: string, head = ''): string {
  return `<!doctype html><html><head><meta name="verified-reviews:product" content="${sku}"><title>${sku}</title>${head}</head><body></body></html>`
}

/** How many of `files` hold the injector's markup. */
async function withMarkup(files: readonly string[]): Promise<number> {
  const texts = await Promise.all(files.map((file) => readFile(join(dir, file), 'utf8')))
  return texts.filter((text) => text.includes('id="verified-reviews-jsonld"')).length
}

describe('injectProductJsonLd finding marked pages', () => {
  it('finds markers written in any case, and parses no page without one', async () => {
    await writeFile(
      join(dir, 'a.html'),
      '<!doctype html><html><head><META NAME="Verified-Reviews:Product" content="SKU-1"><title>A</title></head><body></body></html>',
    )
    await writeFile(
      join(dir, 'b.html'),
      '<!doctype html><html><head><title>B</title></head><body><p DATA-Verified-Reviews-Product="SKU-2">B</p></body></html>',
    )
    // Only through a character reference: not a marker the injector looks for.
    await writeFile(
      join(dir, 'c.html'),
      '<!doctype html><html><head><meta name="verified&#45;reviews:product" content="SKU-3"><title>C</title></head><body></body></html>',
    )
    await writeFile(
      join(dir, 'd.html'),
      '<!doctype html><html><head><title>D</title></head><body></body></html>',
    )
    // In capitals, after other words with an F and a name that is almost the marker's.
    await writeFile(
      join(dir, 'e.html'),
      '<!doctype html><html><head><title>FAQ</title></head><body><p>Verified purchase, VERIFIED-REVIEWER</p><p DATA-VERIFIED-REVIEWS-PRODUCT="SKU-4">E</p></body></html>',
    )
    const report = await run()
    expect(report).toMatchObject({ pages: 5, markedPages: 3, changedPages: 3, products: 3 })
    expect(await withMarkup(['a.html', 'b.html', 'c.html', 'd.html', 'e.html'])).toBe(3)
  })

  it('finds the marker of a UTF-16 page, whose bytes do not spell it, and says why it is skipped', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(productPage('SKU-1'), 'utf16le')])
    const be = Buffer.from(le.subarray(2)).swap16()
    await writeFile(join(dir, 'le.html'), le)
    await writeFile(join(dir, 'be.html'), Buffer.concat([Buffer.from([0xfe, 0xff]), be]))
    const report = await run()
    expect(report.skippedPages).toEqual([
      { file: 'be.html', reason: expect.stringContaining('UTF-16BE (byte order mark)') },
      { file: 'le.html', reason: expect.stringContaining('UTF-16LE (byte order mark)') },
    ])
  })
})

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

describe('injectProductJsonLd and the size cap', () => {
  it('skips a page over maxPageBytes with its size, and marks up the others', async () => {
    await writeFile(join(dir, 'small.html'), productPage('SKU-1'))
    await writeFile(
      join(dir, 'big.html'),
      productPage('SKU-2', `<meta name="x" content="${'x'.repeat(5_000)}">`),
    )
    const report = await run({ maxPageBytes: 1_000 })
    expect(report.skippedPages).toEqual([
      {
        file: 'big.html',
        reason: 'is 5.2 kB, over the 1 kB size cap (maxPageBytes, --max-page-size): not read',
      },
    ])
    expect(report.changedPages).toBe(1)
    expect(await readFile(join(dir, 'big.html'), 'utf8')).not.toContain('verified-reviews-jsonld')
  })

  it('reads a page of exactly maxPageBytes, and skips one a byte longer', async () => {
    const page = productPage('SKU-1')
    await writeFile(join(dir, 'at.html'), page)
    await writeFile(join(dir, 'over.html'), productPage('SKU-2', ' '))
    const report = await run({ maxPageBytes: Buffer.byteLength(page) })
    expect(report.skippedPages.map((skipped) => skipped.file)).toEqual(['over.html'])
    expect(report.changedPages).toBe(1)
    expect(await readFile(join(dir, 'at.html'), 'utf8')).toContain('verified-reviews-jsonld')
  })

  it('does not read a page over the cap: a 3 GB file (sparse, more than a buffer holds) is skipped, not failed', async () => {
    await writeFile(join(dir, 'small.html'), productPage('SKU-1'))
    const handle = await open(join(dir, 'huge.html'), 'w')
    await handle.truncate(3_000_000_000)
    await handle.close()
    const report = await run()
    expect(report.failedPages).toEqual([])
    expect(report.skippedPages).toEqual([
      {
        file: 'huge.html',
        reason: 'is 3 GB, over the 20 MB size cap (maxPageBytes, --max-page-size): not read',
      },
    ])
    expect(report.changedPages).toBe(1)
  })

  it('refuses a maxPageBytes that is no whole number of bytes from 1', async () => {
    await expect(run({ maxPageBytes: 0 })).rejects.toThrow(
      'maxPageBytes must be a whole number of bytes from 1',
    )
  })
})

describe('injectProductJsonLd with one page in trouble', () => {
  const files = Array.from({ length: 40 }, (_, index) => `p${String(index + 1).padStart(2, '0')}.html`)

  async function writeSite(head: (file: string) => string = () => ''): Promise<void> {
    for (const [index, file] of files.entries()) {
      await writeFile(join(dir, file), productPage(`SKU-${index + 1}`, head(file)))
    }
  }

  it("gives every other page its markup when one page's JSON-LD nests 100,000 levels deep", async () => {
    const deep = `{"@type":"Product","name":"Deep","offers":${'['.repeat(100_000)}${']'.repeat(100_000)}}`
    await writeSite((file) =>
      file === 'p08.html' ? `<script type="application/ld+json">${deep}</script>` : '',
    )
    const report = await run()
    expect(report.skippedPages).toEqual([
      {
        file: 'p08.html',
        reason: 'a JSON-LD script of the page nests arrays and objects more than 100 levels deep',
      },
    ])
    expect(report.changedPages).toBe(39)
    expect(await withMarkup(files)).toBe(39)
  })

  it('goes on past a page removed before its markup was written, listing it among the failed pages', async () => {
    await writeSite()
    const report = await run({
      onProgress: ({ phase, done }) => {
        // Another process removes a page between the scan and the writes.
        if (phase === 'write' && done === 0) unlinkSync(join(dir, 'p08.html'))
      },
    })
    expect(report.failedPages).toEqual([
      { file: 'p08.html', reason: expect.stringMatching(/^could not be given its markup: ENOENT/) },
    ])
    expect(report.changedPages).toBe(39)
    expect(await withMarkup(files.filter((file) => file !== 'p08.html'))).toBe(39)
  })

  it('goes on past a page whose URL cannot be worked out, listing it among the failed pages', async () => {
    await writeSite()
    const report = await run({
      pageUrl: (file) => {
        if (file === 'p08.html') throw new TypeError('no URL for this one')
        return `https://shop.example/${file}`
      },
    })
    expect(report.failedPages).toEqual([
      { file: 'p08.html', reason: 'could not be read: no URL for this one' },
    ])
    expect(report.markedPages).toBe(39)
    expect(await withMarkup(files)).toBe(39)
  })
})
