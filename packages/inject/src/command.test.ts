import { execFile } from 'node:child_process'
import { readdirSync, unlinkSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
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
      cwd: dir,
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
    await runCommand(['inject', dir, '--site', 'https://shop.example/'], {
      stdout,
      stderr,
      env: sb.env(),
      cwd: dir,
    })
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
      cwd: dir,
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
        cwd: dir,
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
      expect(await runCommand(args, { stdout, stderr: output(), env: sb.env(), cwd: dir })).toBe(0)
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
      expect(await runCommand(args, { stdout, stderr, env: {}, cwd: dir })).toBe(2)
      expect(stderr.text()).toContain(USAGE)
    }
  })

  it('marks up the AI summary only with --review-summary-author, under that name', async () => {
    const env = sb.env()
    const site = ['--quiet', '--site', 'https://shop.example/']
    expect(
      await runCommand(['inject', dir, ...site], { stdout: output(), stderr: output(), env, cwd: dir }),
    ).toBe(0)
    expect(await readFile(join(dir, 'p/index.html'), 'utf8')).not.toContain('"@type":"Organization"')
    const args = ['inject', dir, ...site, '--review-summary-author', 'Maison Sandbox']
    expect(await runCommand(args, { stdout: output(), stderr: output(), env, cwd: dir })).toBe(0)
    expect(await readFile(join(dir, 'p/index.html'), 'utf8')).toContain(
      '"author":{"@type":"Organization","name":"Maison Sandbox"}',
    )
  })

  it('exits with 2 for a --review-summary-author that names nobody', async () => {
    const [stdout, stderr] = [output(), output()]
    const args = ['inject', dir, '--review-summary-author', ' ']
    expect(await runCommand(args, { stdout, stderr, env: {}, cwd: dir })).toBe(2)
    expect(stderr.text()).toContain('--review-summary-author must name the organization')
  })

  it('exits with 2 for a --max-reviews that is not a whole number', async () => {
    const [stdout, stderr] = [output(), output()]
    expect(
      await runCommand(['inject', dir, '--max-reviews', '2.5'], { stdout, stderr, env: {}, cwd: dir }),
    ).toBe(2)
    expect(stderr.text()).toBe('--max-reviews must be a whole number from 0, got 2.5\n')
  })

  it('exits with 1 and names the variables and the token address when the API refuses the credentials', async () => {
    const [stdout, stderr] = [output(), output()]
    const env: Record<string, string> = { ...sb.env(), VERIFIED_REVIEWS_CLIENT_SECRET: 'wrong' }
    const code = await runCommand(['inject', dir, '--quiet', '--site', 'https://shop.example/'], {
      stdout,
      stderr,
      env,
      cwd: dir,
    })
    expect(code).toBe(1)
    expect(stderr.text()).toBe(
      `verified-reviews inject failed: VERIFIED_REVIEWS_CLIENT_ID (${env.VERIFIED_REVIEWS_CLIENT_ID}) and ` +
        `VERIFIED_REVIEWS_CLIENT_SECRET were refused: the token endpoint ${env.VERIFIED_REVIEWS_ORIGIN}/realms/skeepers/protocol/openid-connect/token ` +
        'answered 401 (invalid_client: unknown client or wrong secret)\n',
    )
  })

  it('says where to set a missing secret, and does not ask to pass it', async () => {
    const [stdout, stderr] = [output(), output()]
    const { VERIFIED_REVIEWS_CLIENT_SECRET: _, ...env } = sb.env()
    await writeFile(join(dir, '.env'), 'VERIFIED_REVIEWS_CLIENT_ID=from-the-file\n')
    // The folder given relative to the one the command runs in, whose .env files it reads.
    const code = await runCommand(['inject', '.', '--quiet', '--site', 'https://shop.example/'], {
      stdout,
      stderr,
      env,
      cwd: dir,
    })
    expect(code).toBe(1)
    expect(stderr.text()).not.toContain('pass it')
    expect(stderr.text()).toBe(
      'verified-reviews inject failed: VERIFIED_REVIEWS_CLIENT_SECRET is not set: set it in the environment, ' +
        `or in .env.production.local, .env.local, .env.production, .env of ${dir} (of which .env exists)\n`,
    )
  })

  it('exits with 0 and prints the reason when a page is skipped for its deep JSON-LD, the others marked up', async () => {
    const deep = `{"@type":"Product","offers":${'['.repeat(100_000)}${']'.repeat(100_000)}}`
    await writeProductPage('deep', 'SKU-002', `<script type="application/ld+json">${deep}</script>`)
    const [stdout, stderr] = [output(), output()]
    const code = await runCommand(['inject', dir, '--quiet', '--site', 'https://shop.example/'], {
      stdout,
      stderr,
      env: sb.env(),
      cwd: dir,
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
      cwd: dir,
    })
    expect(code).toBe(1)
    expect(stdout.text()).toContain(
      '1 page changed, 0 already up to date, 0 without reviews, 0 skipped, 1 failed\n',
    )
    expect(stdout.text()).toMatch(/\nfailed gone\/index\.html: could not be given its markup: ENOENT/)
    expect(await readFile(join(dir, 'p/index.html'), 'utf8')).toContain('id="verified-reviews-jsonld"')
  })

  it('reads the credentials from the .env files of the folder it runs in, as Next.js ranks them', async () => {
    const { VERIFIED_REVIEWS_CLIENT_SECRET: secret, ...env } = sb.env()
    await writeFile(join(dir, '.env'), 'VERIFIED_REVIEWS_CLIENT_SECRET=wrong-in-env\n')
    await writeFile(join(dir, '.env.production'), 'VERIFIED_REVIEWS_CLIENT_SECRET=wrong-in-production\n')
    await writeFile(
      join(dir, '.env.local'),
      `# the secret\nexport VERIFIED_REVIEWS_CLIENT_SECRET="${secret}"\n`,
    )
    const [stdout, stderr] = [output(), output()]
    const code = await runCommand(['inject', '.', '--site', 'https://shop.example/'], {
      stdout,
      stderr,
      env,
      cwd: dir,
    })
    expect(code).toBe(0)
    expect(stderr.text()).toMatch(/^Environment variables from \.env\.local, \.env\.production, \.env\n/)
    expect(stdout.text()).toContain('1 page changed')
  })

  it('lets the process environment win over the .env files', async () => {
    await writeFile(join(dir, '.env.production.local'), 'VERIFIED_REVIEWS_CLIENT_SECRET=wrong\n')
    const args = ['inject', '.', '--quiet', '--site', 'https://shop.example/']
    expect(await runCommand(args, { stdout: output(), stderr: output(), env: sb.env(), cwd: dir })).toBe(0)
  })

  it('exits with 1 when a page is skipped and --strict is given, after giving the other pages their markup', async () => {
    await writeProductPage('bad', 'SKU-002', '<script type="application/ld+json">{not json</script>')
    const args = ['inject', dir, '--quiet', '--site', 'https://shop.example/']
    const [stdout, stderr] = [output(), output()]
    expect(await runCommand([...args, '--strict'], { stdout, stderr, env: sb.env(), cwd: dir })).toBe(1)
    expect(stdout.text()).toContain('skipped bad/index.html: a JSON-LD script of the page does not parse\n')
    expect(stderr.text()).toBe(
      'verified-reviews inject failed: 1 page skipped, and --strict fails the run for any\n',
    )
    expect(await readFile(join(dir, 'p/index.html'), 'utf8')).toContain('id="verified-reviews-jsonld"')
    expect(await runCommand(args, { stdout: output(), stderr: output(), env: sb.env(), cwd: dir })).toBe(0)
  })

  it('skips, with its size, a page over --max-page-size, and lists it in the JSON report', async () => {
    await writeProductPage('big', 'SKU-002', `<meta name="filler" content="${'x'.repeat(20_000)}">`)
    const args = ['inject', dir, '--quiet', '--site', 'https://shop.example/', '--max-page-size', '10kB']
    const [stdout, stderr] = [output(), output()]
    expect(await runCommand(args, { stdout, stderr, env: sb.env(), cwd: dir })).toBe(0)
    expect(stdout.text()).toContain(
      'skipped big/index.html: is 20.1 kB, over the 10 kB size cap (maxPageBytes, --max-page-size): not read\n',
    )
    const json = output()
    expect(await runCommand([...args, '--json'], { stdout: json, stderr, env: sb.env(), cwd: dir })).toBe(0)
    expect(JSON.parse(json.text()).skippedPages).toEqual([
      { file: 'big/index.html', reason: expect.stringMatching(/^is 20\.1 kB, over the 10 kB size cap/) },
    ])
    expect(await readFile(join(dir, 'big/index.html'), 'utf8')).not.toContain('verified-reviews-jsonld')
    expect(
      await runCommand([...args, '--strict'], { stdout: output(), stderr, env: sb.env(), cwd: dir }),
    ).toBe(1)
  })

  it('exits with 2 for a --max-page-size or a --concurrency it cannot read', async () => {
    for (const [flag, value] of [
      ['--max-page-size', '20 MiB'],
      ['--max-page-size', '0'],
      ['--concurrency', '0'],
      ['--concurrency', '1.5'],
    ] as const) {
      const stderr = output()
      expect(
        await runCommand(['inject', dir, flag, value], { stdout: output(), stderr, env: {}, cwd: dir }),
      ).toBe(2)
      expect(stderr.text()).toContain(`${flag} must be`)
    }
  })

  it("keeps a page's .html in its @id, and drops it with --clean-urls", async () => {
    await rm(join(dir, 'p'), { recursive: true })
    await mkdir(join(dir, 'products'))
    const page = join(dir, 'products/SKU-001.html')
    const html =
      '<html><head><meta name="verified-reviews:product" content="SKU-001"></head><body></body></html>'
    const args = ['inject', dir, '--quiet', '--site', 'https://shop.example/']
    for (const [flags, id] of [
      [[], 'https://shop.example/products/SKU-001.html'],
      [['--clean-urls'], 'https://shop.example/products/SKU-001'],
    ] as const) {
      await writeFile(page, html)
      expect(
        await runCommand([...args, ...flags], {
          stdout: output(),
          stderr: output(),
          env: sb.env(),
          cwd: dir,
        }),
      ).toBe(0)
      expect(await readFile(page, 'utf8')).toContain(`"@id":"${id}"`)
    }
  })

  it('gives its markup to a page of 5,000 nested elements, and exits with 0', async () => {
    const depth = 5_000
    await writeProductPage('deep', 'SKU-002', '')
    const deep = join(dir, 'deep/index.html')
    const html = (await readFile(deep, 'utf8')).replace(
      '<body>',
      `<body>${'<div>'.repeat(depth)}${'</div>'.repeat(depth)}`,
    )
    await writeFile(deep, html)
    const [stdout, stderr] = [output(), output()]
    const code = await runCommand(['inject', dir, '--quiet', '--site', 'https://shop.example/'], {
      stdout,
      stderr,
      env: sb.env(),
      cwd: dir,
    })
    expect(stderr.text()).toBe('')
    expect(code).toBe(0)
    expect(stdout.text()).toContain('2 pages changed')
  })

  it('names its --store an SQLite file in its help, the docs and the static example', async () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url))
    const files = [
      'examples/static-eleventy/package.json',
      'apps/docs/src/content/docs/guides/static-sites.mdx',
      'apps/docs/src/content/docs/packages/inject/index.md',
      'apps/docs/src/content/docs/packages/astro/review-rich-snippets-after-the-build.md',
    ]
    const texts = [USAGE, ...(await Promise.all(files.map((file) => readFile(join(root, file), 'utf8'))))]
    const stores = texts.flatMap((text) =>
      [...text.matchAll(/--store[ =]([^\s"`|]+)/g)].map((match) => match[1]),
    )
    expect(stores.length).toBeGreaterThan(3)
    for (const store of stores) expect(store).toMatch(/^<file>$|\.sqlite$/)
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
