// The `astro build` command on small fixture sites when review data cannot be fetched: its exit code and
// what it says. Each build runs in its own process, as a developer or a CI job runs it.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../../test/fixtures/free-port.ts'
import { runCommand } from '../../../test/fixtures/run-command.ts'
import { startSandbox, type TestSandbox } from '../../../test/fixtures/sandbox.ts'
import { readPages } from '../test/build-fixture.ts'

const ASTRO = fileURLToPath(new URL('../node_modules/astro/bin/astro.mjs', import.meta.url))
const TOKEN_PATH = '/realms/skeepers/protocol/openid-connect/token'

/** How one `astro build` ended: its exit code, its output line by line, and the pages it wrote. */
interface Build {
  code: number | null
  lines: string[]
  pages: Map<string, string>
}

let sb: TestSandbox
const folders: string[] = []

beforeAll(async () => {
  sb = await startSandbox({ seed: 1, rateLimit: 0 })
})

afterAll(async () => {
  await sb?.close()
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })))
})

/**
 * Runs `astro build` in `test/fixtures/<fixture>` with `env` as its only `VERIFIED_REVIEWS_*` variables,
 * into folders of its own.
 */
async function astroBuild(fixture: string, env: Record<string, string>): Promise<Build> {
  const outDir = await mkdtemp(join(tmpdir(), 'vr-astro-check-out-'))
  const cacheDir = await mkdtemp(join(tmpdir(), 'vr-astro-check-cache-'))
  folders.push(outDir, cacheDir)
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VERIFIED_REVIEWS_')),
  )
  const { code, output } = await runCommand(
    process.execPath,
    ['--conditions=@verified-reviews/source', ASTRO, 'build'],
    {
      cwd: fileURLToPath(new URL(`../test/fixtures/${fixture}/`, import.meta.url)),
      env: {
        ...inherited,
        ...env,
        ASTRO_TELEMETRY_DISABLED: '1',
        FIXTURE_OUT_DIR: outDir,
        FIXTURE_CACHE_DIR: cacheDir,
      },
    },
  )
  // Colour codes stripped, so lines compare as text.
  const lines = stripVTControlCharacters(output).split('\n')
  return { code, lines, pages: await readPages(outDir) }
}

function matching(build: Build, pattern: RegExp): string[] {
  return build.lines.filter((line) => pattern.test(line))
}

describe('astro build of a product page', () => {
  it('fails with one line naming the variables when the token endpoint refuses the credentials', async () => {
    const build = await astroBuild('reviews-page', {
      VERIFIED_REVIEWS_ORIGIN: sb.sandbox.origin,
      VERIFIED_REVIEWS_CLIENT_ID: sb.sandbox.clientId,
      VERIFIED_REVIEWS_CLIENT_SECRET: 'not-the-secret',
    })
    expect(build.code).not.toBe(0)
    expect(matching(build, /VERIFIED_REVIEWS_CLIENT_SECRET/)).toEqual([
      `VERIFIED_REVIEWS_CLIENT_ID (${sb.sandbox.clientId}) and VERIFIED_REVIEWS_CLIENT_SECRET were refused: ` +
        `the token endpoint ${sb.sandbox.origin}${TOKEN_PATH} answered 401 (invalid_client: unknown client or ` +
        'wrong secret): the build stops, since its pages would have no reviews. Fix this, or set failOnError to ' +
        'false (or VERIFIED_REVIEWS_FAIL_ON_ERROR=0) to build them without reviews.',
    ])
    expect(build.pages.size).toBe(0)
  })

  it('fails with one line naming the address when the API cannot be reached', async () => {
    const origin = `http://127.0.0.1:${await freePort()}`
    const build = await astroBuild('reviews-page', {
      VERIFIED_REVIEWS_ORIGIN: origin,
      VERIFIED_REVIEWS_CLIENT_ID: sb.sandbox.clientId,
      VERIFIED_REVIEWS_CLIENT_SECRET: sb.sandbox.clientSecret,
    })
    expect(build.code).not.toBe(0)
    expect(matching(build, new RegExp(origin.replaceAll('.', '\\.')))).toEqual([
      `${origin} (set in VERIFIED_REVIEWS_ORIGIN) cannot be reached: ECONNREFUSED for ${origin}${TOKEN_PATH}: ` +
        'the build stops, since its pages would have no reviews. Fix this, or set failOnError to false ' +
        '(or VERIFIED_REVIEWS_FAIL_ON_ERROR=0) to build them without reviews.',
    ])
    expect(build.pages.size).toBe(0)
  })

  it('builds without credentials, saying once that the pages have no reviews, and nothing else', async () => {
    const build = await astroBuild('reviews-page', { VERIFIED_REVIEWS_ORIGIN: sb.sandbox.origin })
    expect(build.code).toBe(0)
    expect(matching(build, /without reviews/)).toEqual([
      expect.stringMatching(
        /\[WARN\] \[@verified-reviews\/astro\] VERIFIED_REVIEWS_CLIENT_ID and VERIFIED_REVIEWS_CLIENT_SECRET are not set: the pages are built without reviews\. Set failOnError/,
      ),
    ])
    expect(matching(build, /\[ERROR\]|Stack trace/)).toEqual([])
    expect(build.pages.get('index.html')).not.toMatch(/vr-product-reviews|application\/ld\+json/)
  })
})

describe('astro build of a product page with synced reviews', () => {
  it('builds without credentials, its loaders fetching nothing, and says it once', async () => {
    const build = await astroBuild('synced-reviews-page', { VERIFIED_REVIEWS_ORIGIN: sb.sandbox.origin })
    expect(build.code).toBe(0)
    expect(matching(build, /without reviews/)).toHaveLength(1)
    expect(matching(build, /\[ERROR\]|Stack trace/)).toEqual([])
    expect(build.pages.get('index.html')).toContain('<p id="synced-reviews">0</p>')
  })
})
