/**
 * Peak memory of the injector per page: each shape of page, just under the size cap, goes through
 * `injectProductJsonLd` alone in a fresh process (its reading, its scan, its markup added, its check
 * after writing), which reports its peak resident memory (`maxRSS`) over what it held before the run.
 * The factor printed is that growth over the page's size: the injector's docs give the worst one
 * measured, so that pages processed at once × the cap × the factor bounds a run's memory.
 *
 *   pnpm bench:inject-memory                  # 20 MB, the default cap, 1 page at once
 *   pnpm bench:inject-memory --mb 5 --pages 4 # 5 MB pages, 4 of them at once
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { injectProductJsonLd } from '@verified-reviews/inject'
import { ratingsOnlyCatalog } from '../fixtures/ratings-only-catalog.ts'

const SHAPES = {
  /** Short elements, one after the other: the most nodes a byte can make. */
  'dense elements': (i: number) => `<div class="c${i % 10}"><b>${i}</b></div>\n`,
  /** A single attribute value of the whole size (the 64 MB attribute). */
  'one huge attribute': () => 'x',
  /** Paragraphs of text: a page of content. */
  'text paragraphs': (i: number) => `<p>Lorem ipsum dolor sit amet ${i}, consectetur adipiscing elit.</p>\n`,
  /** Elements nested in one another, 1,000 deep then closed, over and over. */
  'nested elements': (i: number) => (i % 2000 < 1000 ? '<div>' : '</div>'),
} as const
type Shape = keyof typeof SHAPES

/** A page marking SKU-1 of about `bytes` bytes in `shape`. */
function pageOf(shape: Shape, bytes: number): string {
  const head =
    '<!doctype html><html><head><meta name="verified-reviews:product" content="SKU-1"><title>Big</title></head><body>'
  const tail = '</body></html>'
  if (shape === 'one huge attribute') {
    const wrapper = '<div data-x=""></div>'
    return `${head}<div data-x="${'x'.repeat(bytes - head.length - tail.length - wrapper.length - 100)}"></div>${tail}`
  }
  const parts: string[] = [head]
  let size = head.length + tail.length
  for (let i = 0; ; i++) {
    const part = SHAPES[shape](i)
    if (size + part.length > bytes) break
    parts.push(part)
    size += part.length
  }
  parts.push(tail)
  return parts.join('')
}

interface Measure {
  shape: Shape
  pageBytes: number
  pages: number
  changed: number
  skipped: number
  growthBytes: number
  seconds: number
}

/** In the child: writes the pages, then measures one run over them. */
async function child(shape: Shape, bytes: number, pages: number): Promise<Measure> {
  const dir = await mkdtemp(join(tmpdir(), 'vr-inject-memory-'))
  try {
    let pageBytes = 0
    for (let n = 0; n < pages; n++) {
      const html = pageOf(shape, bytes)
      pageBytes = Buffer.byteLength(html)
      await writeFile(join(dir, `p${n}.html`), html)
    }
    ;(globalThis as { gc?: () => void }).gc?.()
    const before = process.memoryUsage.rss()
    const started = performance.now()
    const report = await injectProductJsonLd({
      dir,
      site: 'https://shop.example/',
      catalog: ratingsOnlyCatalog,
      maxReviews: 0,
      concurrency: pages,
      maxPageBytes: bytes,
    })
    const seconds = (performance.now() - started) / 1000
    const peak = process.resourceUsage().maxRSS * 1024
    return {
      shape,
      pageBytes,
      pages,
      changed: report.changedPages,
      skipped: report.skippedPages.length,
      growthBytes: peak - before,
      seconds,
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name)
  return at === -1 ? fallback : Number(args[at + 1])
}

if (args[0] === '--child') {
  const measure = await child(args[1] as Shape, Number(args[2]), Number(args[3]))
  process.stdout.write(JSON.stringify(measure))
} else {
  const cap = Math.round(option('--mb', 20) * 1e6)
  const pages = option('--pages', 1)
  const shapes = (
    args.includes('--shape') ? [args[args.indexOf('--shape') + 1]] : Object.keys(SHAPES)
  ) as Shape[]
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
  console.log(`Cap ${mb(cap)}, ${pages} page(s) at once, each page just under the cap`)
  let worst = 0
  for (const shape of shapes) {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--conditions=@verified-reviews/source',
        '--expose-gc',
        fileURLToPath(import.meta.url),
        '--child',
        shape,
        String(cap),
        String(pages),
      ],
      { maxBuffer: 1e6 },
    )
    const m = JSON.parse(stdout) as Measure
    const factor = m.growthBytes / (m.pageBytes * m.pages)
    worst = Math.max(worst, factor)
    console.log(
      `${shape.padEnd(20)} page ${mb(m.pageBytes)} × ${m.pages}: peak RSS +${mb(m.growthBytes)}, ` +
        `factor ${factor.toFixed(1)} (changed ${m.changed}, skipped ${m.skipped}) in ${m.seconds.toFixed(1)} s`,
    )
  }
  console.log(`Worst factor: ${worst.toFixed(1)}: peak growth ≤ pages at once × cap × ${worst.toFixed(1)}`)
}
