// The `next build` command on a one-page site when review data cannot be fetched: its exit code and what it
// says. Such a build stops while Next.js loads next.config (withVerifiedReviews), before it compiles a page.
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../fixtures/free-port.ts'
import { runCommand } from '../fixtures/run-command.ts'
import { startSandbox, type TestSandbox } from '../fixtures/sandbox.ts'
import { buildPackages, DIST_DIR, NEXT } from './next-demo-app.ts'

const SITE = join(import.meta.dirname, 'next-build-check')
const TOKEN_PATH = '/realms/skeepers/protocol/openid-connect/token'

let sb: TestSandbox

beforeAll(async () => {
  await buildPackages()
  sb = await startSandbox({ seed: 1, rateLimit: 0 })
}, 300_000)

afterAll(async () => {
  await sb?.close()
  await rm(join(SITE, DIST_DIR), { recursive: true, force: true })
})

/** Runs `next build` of the site with `env` as its only `VERIFIED_REVIEWS_*` variables. */
async function nextBuild(env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  await rm(join(SITE, DIST_DIR), { recursive: true, force: true })
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VERIFIED_REVIEWS_')),
  )
  const { code, output } = await runCommand(process.execPath, [NEXT, 'build'], {
    cwd: SITE,
    env: {
      ...inherited,
      ...env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      NEXT_DEMO_DIST_DIR: DIST_DIR,
      VERIFIED_REVIEWS_DIST_DIR: DIST_DIR,
    },
  })
  return { code, lines: stripVTControlCharacters(output).split('\n') }
}

/** The last line a reader sees: Next.js's "Failed to load next.config.ts" comes before it. */
function lastLine(lines: string[]): string | undefined {
  const said = lines.filter((line) => line.trim() !== '')
  expect(said.some((line) => line.includes('Failed to load next.config'))).toBe(true)
  return said.at(-1)
}

describe('next build of a product page', () => {
  it('fails with one line naming the variables when the token endpoint refuses the credentials', async () => {
    const build = await nextBuild({
      VERIFIED_REVIEWS_ORIGIN: sb.sandbox.origin,
      VERIFIED_REVIEWS_CLIENT_ID: sb.sandbox.clientId,
      VERIFIED_REVIEWS_CLIENT_SECRET: 'not-the-secret',
    })
    expect(build.code).not.toBe(0)
    expect(build.lines.filter((line) => line.includes('VERIFIED_REVIEWS_CLIENT_SECRET'))).toEqual([
      `[Error: [@verified-reviews/next] VERIFIED_REVIEWS_CLIENT_ID (${sb.sandbox.clientId}) and ` +
        'VERIFIED_REVIEWS_CLIENT_SECRET were refused: the token endpoint ' +
        `${sb.sandbox.origin}${TOKEN_PATH} answered 401 (invalid_client: unknown client or wrong secret): the ` +
        'build stops, since its pages would have no reviews. Fix this, or set failOnError to false (or ' +
        'VERIFIED_REVIEWS_FAIL_ON_ERROR=0) to build them without reviews.]',
    ])
    expect(lastLine(build.lines)).toContain('VERIFIED_REVIEWS_CLIENT_SECRET were refused')
  }, 300_000)

  it('fails with one line naming the address when the API cannot be reached', async () => {
    const origin = `http://127.0.0.1:${await freePort()}`
    const build = await nextBuild({
      VERIFIED_REVIEWS_ORIGIN: origin,
      VERIFIED_REVIEWS_CLIENT_ID: sb.sandbox.clientId,
      VERIFIED_REVIEWS_CLIENT_SECRET: sb.sandbox.clientSecret,
    })
    expect(build.code).not.toBe(0)
    expect(build.lines.filter((line) => line.includes(origin))).toEqual([
      `[Error: [@verified-reviews/next] ${origin} (set in VERIFIED_REVIEWS_ORIGIN) cannot be reached: ECONNREFUSED ` +
        `for ${origin}${TOKEN_PATH}: the build stops, since its pages would have no reviews. Fix this, or set ` +
        'failOnError to false (or VERIFIED_REVIEWS_FAIL_ON_ERROR=0) to build them without reviews.]',
    ])
    expect(lastLine(build.lines)).toContain(`${origin} (set in VERIFIED_REVIEWS_ORIGIN) cannot be reached`)
  }, 300_000)
})
