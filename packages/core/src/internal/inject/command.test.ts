import { execFile } from 'node:child_process'
import { readdirSync, unlinkSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import { runCommand, USAGE } from './command.ts'
import { createProgressBar } from './progress-bar.ts'

const sb = sandboxForFile({ seed: 1 })
let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vr-cli-'))
  await mkdir(join(dir, 'p'))
  await writeFile(
    join(dir, 'p/index.html'),
    '<html><head><title>Sweater</title><meta name="verified-reviews:product" content="SKU-001"></head><body></body></html>',
  )
  await writeFile(join(dir, 'index.html'), '<html><head></head><body></body></html>')
  return () => rm(dir, { recursive: true, force: true })
})

/** Adds `<folder>/index.html`, a page that marks `sku`, with `head` at the end of its head. */
async function writeProductPage(folder: string, sku: string, head = ''): Promise<void> {
  await mkdir(join(dir, folder))
  await writeFile(
    join(dir, folder, 'index.html'),
    `<html><head><meta name="verified-reviews:product" content="${sku}">${head}</head><body></body></html>`,
  )
}

function output(isTTY = false) {
  const text: string[] = []
  return { isTTY, columns: 100, write: (chunk: string) => text.push(chunk), text: () => text.join('') }
}

describe('verified-reviews inject', () => {
  it('prints pages changed, products and API calls', async () => {
    const [stdout, stderr] = [output(), output()]
    const code = await runCommand(['inject', dir, '--site', 'https://shop.example/'], {
      stdout,
      stderr,
      env: sb.env(),
    })
    expect(code).toBe(0)
    expect(stdout.text()).toBe(
      '2 pages read, 1 marked with a product\n' +
        '1 page changed, 0 already up to date, 0 without reviews, 0 skipped\n' +
        '1 product\n' +
        '2 API calls (1 review page, 1 summary page); reviews of 1 named product\n',
    )
    expect(await readFile(join(dir, 'p/index.html'), 'utf8')).toContain('"@id":"https://shop.example/p/"')
  })

  it('shows progress as phase lines when stderr is not a terminal', async () => {
    const [stdout, stderr] = [output(), output()]
    await runCommand(['inject', dir, '--site', 'https://shop.example/'], { stdout, stderr, env: sb.env() })
    expect(stderr.text()).toBe(
      'Reading pages…\nReading pages: 2/2\nFetching ratings and reviews…\nAdding JSON-LD…\nAdding JSON-LD: 1/1\n',
    )
  })

  it('prints the report as JSON with --json, and no progress', async () => {
    const [stdout, stderr] = [output(), output()]
    await runCommand(['inject', dir, '--json', '--max-reviews', '0', '--site', 'https://shop.example/'], {
      stdout,
      stderr,
      env: sb.env(),
    })
    expect(JSON.parse(stdout.text())).toMatchObject({
      pages: 2,
      apiCalls: { reviews: 0, products: 1, total: 1 },
    })
    expect(stderr.text()).toBe('')
  })

  it('syncs without --store into a temporary SQLite store, which it removes at the end', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'vr-cli-tmp-'))
    vi.stubEnv('TMPDIR', scratch)
    const seen: string[] = []
    // Looked at while the run is under way (between two pages written), then after it.
    const stdout = output()
    const stderr = {
      ...output(),
      write: (chunk: string) => {
        seen.push(...readdirSync(scratch))
        return chunk.length > 0
      },
    }
    try {
      const code = await runCommand(['inject', dir, '--site', 'https://shop.example/'], {
        stdout,
        stderr,
        env: sb.env(),
      })
      expect(code).toBe(0)
      expect(seen.some((name) => name.startsWith('verified-reviews-inject-'))).toBe(true)
      expect(await readdir(scratch)).toEqual([])
    } finally {
      vi.unstubAllEnvs()
      await rm(scratch, { recursive: true, force: true })
    }
  })

  it("keeps the marked products' reviews in --store, so that a second run asks for what changed in one call", async () => {
    for (let n = 2; n <= 40; n++) await writeProductPage(`p${n}`, `SKU-${String(n).padStart(3, '0')}`)
    const store = join(dir, '..', `${dir.split(/[\\/]/).pop()}-store.sqlite`)
    const inject = async () => {
      const stdout = output()
      const args = ['inject', dir, '--site', 'https://shop.example/', '--store', store, '--quiet']
      expect(await runCommand(args, { stdout, stderr: output(), env: sb.env() })).toBe(0)
      return stdout.text()
    }
    try {
      expect(await inject()).toContain(
        '10 API calls (9 review pages, 1 summary page); reviews of 40 named products',
      )
      const second = await inject()
      expect(second).toContain('0 pages changed, 36 already up to date, 4 without reviews')
      expect(second).toContain('2 API calls (1 review page, 1 summary page)')
    } finally {
      for (const end of ['', '-wal', '-shm']) await rm(`${store}${end}`, { force: true })
    }
  })

  it('exits with 2 and the usage for an unknown command or option', async () => {
    for (const args of [['publish', dir], ['inject'], ['inject', dir, '--colour']]) {
      const [stdout, stderr] = [output(), output()]
      expect(await runCommand(args, { stdout, stderr, env: {} })).toBe(2)
      expect(stderr.text()).toContain(USAGE)
    }
  })

  it('marks up the AI summary only with --review-summary-author, under that name', async () => {
    const env = sb.env()
    const site = ['--quiet', '--site', 'https://shop.example/']
    expect(await runCommand(['inject', dir, ...site], { stdout: output(), stderr: output(), env })).toBe(0)
    expect(await readFile(join(dir, 'p/index.html'), 'utf8')).not.toContain('"@type":"Organization"')
    const args = ['inject', dir, ...site, '--review-summary-author', 'Maison Sandbox']
    expect(await runCommand(args, { stdout: output(), stderr: output(), env })).toBe(0)
    expect(await readFile(join(dir, 'p/index.html'), 'utf8')).toContain(
      '"author":{"@type":"Organization","name":"Maison Sandbox"}',
    )
  })

  it('exits with 2 for a --review-summary-author that names nobody', async () => {
    const [stdout, stderr] = [output(), output()]
    const args = ['inject', dir, '--review-summary-author', ' ']
    expect(await runCommand(args, { stdout, stderr, env: {} })).toBe(2)
    expect(stderr.text()).toContain('--review-summary-author must name the organization')
  })

  it('exits with 2 for a --max-reviews that is not a whole number', async () => {
    const [stdout, stderr] = [output(), output()]
    expect(await runCommand(['inject', dir, '--max-reviews', '2.5'], { stdout, stderr, env: {} })).toBe(2)
    expect(stderr.text()).toBe('--max-reviews must be a whole number from 0, got 2.5\n')
  })

  it('exits with 1 and says why when the API refuses the credentials', async () => {
    const [stdout, stderr] = [output(), output()]
    const code = await runCommand(['inject', dir, '--quiet', '--site', 'https://shop.example/'], {
      stdout,
      stderr,
      env: { ...sb.env(), VERIFIED_REVIEWS_CLIENT_SECRET: 'wrong' },
    })
    expect(code).toBe(1)
    expect(stderr.text()).toMatch(/^verified-reviews inject failed: /)
  })

  it('exits with 0 and prints the reason when a page is skipped for its deep JSON-LD, the others marked up', async () => {
    const deep = `{"@type":"Product","offers":${'['.repeat(100_000)}${']'.repeat(100_000)}}`
    await writeProductPage('deep', 'SKU-002', `<script type="application/ld+json">${deep}</script>`)
    const [stdout, stderr] = [output(), output()]
    const code = await runCommand(['inject', dir, '--quiet', '--site', 'https://shop.example/'], {
      stdout,
      stderr,
      env: sb.env(),
    })
    expect(code).toBe(0)
    expect(stdout.text()).toContain(
      'skipped deep/index.html: a JSON-LD script of the page nests arrays and objects more than 100 levels deep\n',
    )
    expect(await readFile(join(dir, 'p/index.html'), 'utf8')).toContain('id="verified-reviews-jsonld"')
  })

  it('exits with 1 and lists a page that failed, after giving the other pages their markup', async () => {
    await writeProductPage('gone', 'SKU-002')
    const stdout = output()
    const stderr = {
      ...output(),
      write: (chunk: string) => {
        // Another process removes a page once the injector starts writing.
        if (chunk === 'Adding JSON-LD…\n') unlinkSync(join(dir, 'gone/index.html'))
        return true
      },
    }
    const code = await runCommand(['inject', dir, '--site', 'https://shop.example/'], {
      stdout,
      stderr,
      env: sb.env(),
    })
    expect(code).toBe(1)
    expect(stdout.text()).toContain(
      '1 page changed, 0 already up to date, 0 without reviews, 0 skipped, 1 failed\n',
    )
    expect(stdout.text()).toMatch(/\nfailed gone\/index\.html: could not be given its markup: ENOENT/)
    expect(await readFile(join(dir, 'p/index.html'), 'utf8')).toContain('id="verified-reviews-jsonld"')
  })

  it('runs as an executable', async () => {
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url))
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=@verified-reviews/source', cli, 'inject', dir, '--site', 'https://shop.example/'],
      { env: { ...process.env, ...sb.env() } },
    )
    expect(stdout).toContain('1 page changed')
  })
})

describe('createProgressBar', () => {
  it('redraws one line per phase in place on a terminal', () => {
    const stream = output(true)
    const bar = createProgressBar(stream)
    bar.update({ phase: 'scan', done: 0, total: 2 })
    bar.update({ phase: 'scan', done: 2, total: 2 })
    bar.update({ phase: 'write', done: 1, total: 1 })
    bar.end()
    const lines = stream.text().split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[0]).toContain('\r\u001b[2KReading pages')
    expect(lines[0]?.endsWith(`${'█'.repeat(24)} 2/2`)).toBe(true)
    expect(lines[1]).toContain(`Adding JSON-LD`)
  })

  it('shows the whole line on a terminal that reports no width', () => {
    const stream = { ...output(true), columns: 0 }
    const bar = createProgressBar(stream)
    bar.update({ phase: 'write', done: 12, total: 12 })
    expect(stream.text().endsWith(' 12/12')).toBe(true)
  })
})
