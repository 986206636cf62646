// What `pnpm pack` puts in each public package's tarball, read back from the tarball itself: no test,
// type test, test helper or fixture; the LICENSE and README; a package.json that names the repository
// (npm provenance needs it); no source map naming a file the tarball lacks. Then a dry-run publish of
// each tarball, as `changeset publish` runs it. Runs after `pnpm build` (the root `check` script's order),
// so `dist/` is what a release would publish. One pack for all, reused by every check.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectedFields, publicPackages } from '../../scripts/release-metadata.ts'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
const testFile = /\.test(-d)?\.|\/testing\/|fixtures/

interface Packed {
  name: string
  version: string
  filename: string
}

interface Tarball extends Packed {
  /** Paths inside the tarball, without the leading `package/`. */
  paths: string[]
  /** Where the tarball is extracted. */
  folder: string
}

const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { packageManager: string }
let destination = ''
const tarballs = new Map<string, Tarball>()

/** The pnpm of `packageManager`: the one on the PATH when it is that version (saves an npx start a call). */
async function pnpmCommand(): Promise<[string, ...string[]]> {
  const version = manifest.packageManager.replace(/^pnpm@/, '')
  const onPath = await run('pnpm', ['--version']).catch(() => undefined)
  return onPath?.stdout.trim() === version ? ['pnpm'] : ['npx', '-y', manifest.packageManager]
}
let pnpm: (args: string[], cwd: string) => Promise<{ stdout: string }>

beforeAll(async () => {
  const [command, ...prefix] = await pnpmCommand()
  pnpm = (args, cwd) => run(command, [...prefix, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 })
  destination = await mkdtemp(join(tmpdir(), 'vr-tarballs-'))
  // One recursive pack for all packages: one pnpm start instead of eight.
  const { stdout } = await pnpm(
    ['-r', '--filter', './packages/*', 'pack', '--pack-destination', destination, '--json'],
    root,
  )
  const packed = JSON.parse(stdout) as Packed[]
  await Promise.all(
    packed.map(async ({ name, version, filename }) => {
      const folder = join(destination, name.replace('/', '+'))
      await mkdir(folder)
      await run('tar', ['-xzf', filename, '-C', folder])
      const listing = await run('tar', ['-tzf', filename], { maxBuffer: 64 * 1024 * 1024 })
      const paths = listing.stdout
        .split('\n')
        .filter(Boolean)
        .map((path) => path.replace(/^package\//, ''))
      tarballs.set(name, { name, version, filename, paths, folder: join(folder, 'package') })
    }),
  )
}, 120_000)

afterAll(async () => {
  if (destination) await rm(destination, { recursive: true, force: true })
})

const contents = (name: string): string[] => tarballs.get(name)?.paths ?? []

describe('the published tarballs', () => {
  it('pack every public package, each with its built dist/', () => {
    expect([...tarballs.keys()].sort()).toEqual([
      '@verified-reviews/astro',
      '@verified-reviews/core',
      '@verified-reviews/inject',
      '@verified-reviews/migrate',
      '@verified-reviews/next',
      '@verified-reviews/react',
      '@verified-reviews/redis',
      '@verified-reviews/sandbox',
    ])
    expect([...tarballs.keys()].sort()).toEqual(publicPackages().map(({ name }) => name))
    for (const [name, { paths }] of tarballs) {
      expect(paths, `${name} has no dist/index.js: run \`pnpm build\` first`).toContain('dist/index.js')
    }
  })

  it('ship the cache handler modules that withVerifiedReviews and withRedisCache name by their path', () => {
    expect(contents('@verified-reviews/next')).toContain('dist/cache-handlers/incremental-cache.js')
    expect(contents('@verified-reviews/redis')).toEqual(
      expect.arrayContaining([
        'dist/next-config.js',
        'dist/next-cache-handlers/incremental-cache.js',
        'dist/next-cache-handlers/use-cache.js',
      ]),
    )
  })

  it('ship the star file beside the core stylesheet, exported, and the React and Astro stylesheets import that one', async () => {
    expect(contents('@verified-reviews/core')).toEqual(
      expect.arrayContaining(['src/styles.css', 'src/star.svg']),
    )
    const core = JSON.parse(await readFile(join(root, 'packages/core/package.json'), 'utf8')) as {
      exports: Record<string, unknown>
    }
    expect(core.exports).toMatchObject({ './styles.css': './src/styles.css', './star.svg': './src/star.svg' })
    expect(await readFile(join(root, 'packages/core/src/styles.css'), 'utf8')).toContain('url("./star.svg")')
    // A bundler inlines the import and resolves the url() from the imported file: core's star.svg.
    for (const name of ['react', 'astro']) {
      expect(contents(`@verified-reviews/${name}`)).toContain('src/styles.css')
      expect(await readFile(join(root, `packages/${name}/src/styles.css`), 'utf8')).toMatch(
        /^@import "@verified-reviews\/core\/styles\.css";$/m,
      )
    }
  })

  it('hold no test file, type test, test helper or fixture', () => {
    const shipped = [...tarballs].flatMap(([name, { paths }]) =>
      paths.filter((path) => testFile.test(`/${path}`)).map((path) => `${name}: ${path}`),
    )
    expect(shipped).toEqual([])
  })

  it('hold the LICENSE of the repository and a README', async () => {
    const license = await readFile(join(root, 'LICENSE'), 'utf8')
    for (const [name, { paths, folder }] of tarballs) {
      expect(paths, name).toEqual(expect.arrayContaining(['LICENSE', 'README.md']))
      expect(await readFile(join(folder, 'LICENSE'), 'utf8'), `${name}: LICENSE`).toBe(license)
    }
  })

  it('name the repository, the homepage and the issues in a publishable package.json', async () => {
    for (const { folder: packageFolder, name } of publicPackages()) {
      const tarball = tarballs.get(name)
      if (!tarball) throw new Error(`${name} was not packed`)
      const packed = JSON.parse(await readFile(join(tarball.folder, 'package.json'), 'utf8')) as Record<
        string,
        unknown
      >
      expect(packed, name).toMatchObject({ license: 'MIT', ...expectedFields(packageFolder) })
      expect(packed.private, name).toBeUndefined()
      // pnpm replaces `workspace:` ranges when it packs; one left would not install from npm.
      expect(JSON.stringify(packed), name).not.toContain('workspace:')
    }
  })

  it('name in their source maps only files the tarball holds', async () => {
    const missing: string[] = []
    for (const [name, { paths, folder }] of tarballs) {
      const shipped = new Set(paths)
      for (const path of paths) {
        if (path.endsWith('.map')) {
          const map = JSON.parse(await readFile(join(folder, path), 'utf8')) as {
            sources: string[]
            sourceRoot?: string
          }
          for (const source of map.sources) {
            const named = posix.normalize(posix.join(posix.dirname(path), map.sourceRoot ?? '', source))
            if (!shipped.has(named)) missing.push(`${name}: ${path} names ${named}`)
          }
        } else if (/\.(c|m)?(js|ts)$/.test(path)) {
          const text = await readFile(join(folder, path), 'utf8')
          for (const [, url] of text.matchAll(/^\/\/# sourceMappingURL=(\S+)$/gm)) {
            if (url === undefined || url.startsWith('data:')) continue
            const named = posix.normalize(posix.join(posix.dirname(path), url))
            if (!shipped.has(named)) missing.push(`${name}: ${path} names ${named}`)
          }
        }
      }
    }
    expect(missing).toEqual([])
  })

  it('publish, in a dry run, as `changeset publish` publishes them', async () => {
    const config = JSON.parse(await readFile(join(root, '.changeset/config.json'), 'utf8')) as {
      access: string
    }
    // The tarballs already packed, with the arguments `changeset publish` gives `pnpm publish` (which
    // hands a tarball to npm: it reads the manifest and asks the registry whether the version exists).
    const results = await Promise.all(
      [...tarballs.values()].map(async ({ name, version, filename, paths }) => {
        const { stdout } = await pnpm(
          [
            'publish',
            filename,
            '--dry-run',
            '--json',
            '--no-git-checks',
            '--access',
            config.access,
            '--tag',
            'latest',
          ],
          dirname(filename),
        )
        const published = (JSON.parse(stdout) as Record<string, { id: string; files: { path: string }[] }>)[
          name
        ]
        return { name, version, paths, published }
      }),
    )
    for (const { name, version, paths, published } of results) {
      expect(published?.id, name).toBe(`${name}@${version}`)
      expect(published?.files.map(({ path }) => path).sort(), name).toEqual([...paths].sort())
    }
  }, 120_000)
})
