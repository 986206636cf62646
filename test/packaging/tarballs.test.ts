// What `pnpm pack` puts in each package's tarball, read back from the tarball itself: no test, type test,
// test helper or fixture may ship. Runs after `pnpm build` (the root `check` script's order), so `dist/`
// is what a release would publish.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
const testFile = /\.test(-d)?\.|\/testing\/|fixtures/

interface Packed {
  name: string
  filename: string
}

let destination = ''
const contents = new Map<string, string[]>()

beforeAll(async () => {
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    packageManager: string
  }
  destination = await mkdtemp(join(tmpdir(), 'vr-tarballs-'))
  // One recursive pack for all packages: one pnpm start instead of six.
  const { stdout } = await run(
    'npx',
    [
      '-y',
      manifest.packageManager,
      '-r',
      '--filter',
      './packages/*',
      'pack',
      '--pack-destination',
      destination,
      '--json',
    ],
    { cwd: root, maxBuffer: 64 * 1024 * 1024 },
  )
  const packed = JSON.parse(stdout) as Packed[]
  for (const { name, filename } of packed) {
    const listing = await run('tar', ['-tzf', filename], { maxBuffer: 64 * 1024 * 1024 })
    contents.set(name, listing.stdout.split('\n').filter(Boolean))
  }
}, 120_000)

afterAll(async () => {
  if (destination) await rm(destination, { recursive: true, force: true })
})

describe('the published tarballs', () => {
  it('pack every package, each with its built dist/', () => {
    expect([...contents.keys()].sort()).toEqual([
      '@verified-reviews/astro',
      '@verified-reviews/core',
      '@verified-reviews/next',
      '@verified-reviews/react',
      '@verified-reviews/redis',
      '@verified-reviews/sandbox',
    ])
    for (const [name, paths] of contents) {
      expect(paths, `${name} has no dist/index.js: run \`pnpm build\` first`).toContain(
        'package/dist/index.js',
      )
    }
  })

  it('ship the cache handler modules that withVerifiedReviews and withRedisCache name by their path', () => {
    expect(contents.get('@verified-reviews/next')).toContain(
      'package/dist/cache-handlers/incremental-cache.js',
    )
    expect(contents.get('@verified-reviews/redis')).toEqual(
      expect.arrayContaining([
        'package/dist/next-config.js',
        'package/dist/next-cache-handlers/incremental-cache.js',
        'package/dist/next-cache-handlers/use-cache.js',
      ]),
    )
  })

  it('ship the star file beside the core stylesheet, exported, and the React and Astro stylesheets import that one', async () => {
    expect(contents.get('@verified-reviews/core')).toEqual(
      expect.arrayContaining(['package/src/styles.css', 'package/src/star.svg']),
    )
    const core = JSON.parse(await readFile(join(root, 'packages/core/package.json'), 'utf8')) as {
      exports: Record<string, unknown>
    }
    expect(core.exports).toMatchObject({ './styles.css': './src/styles.css', './star.svg': './src/star.svg' })
    expect(await readFile(join(root, 'packages/core/src/styles.css'), 'utf8')).toContain('url("./star.svg")')
    // A bundler inlines the import and resolves the url() from the imported file: core's star.svg.
    for (const name of ['react', 'astro']) {
      expect(contents.get(`@verified-reviews/${name}`)).toContain('package/src/styles.css')
      expect(await readFile(join(root, `packages/${name}/src/styles.css`), 'utf8')).toMatch(
        /^@import "@verified-reviews\/core\/styles\.css";$/m,
      )
    }
  })

  it('hold no test file, type test, test helper or fixture', () => {
    const shipped = [...contents].flatMap(([name, paths]) =>
      paths.filter((path) => testFile.test(path)).map((path) => `${name}: ${path}`),
    )
    expect(shipped).toEqual([])
  })
})
