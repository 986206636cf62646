import type { ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../../../../test/fixtures/sandbox.ts'
import { getBuildData } from '../build-data.ts'
import { fetchesAhead, forkFetchAhead } from './build-ahead.ts'
import { handBuildAhead } from './build-handoff.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
let distDir: string
let folder: string

beforeEach(async () => {
  distDir = await mkdtemp(join(tmpdir(), 'vr-next-ahead-'))
  folder = join(distDir, 'verified-reviews')
  for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
  vi.stubEnv('VERIFIED_REVIEWS_DIST_DIR', distDir)
  // The credentials check at the start of the build passed (what `checkBuildOnce` hands on).
  vi.stubEnv('__VERIFIED_REVIEWS_BUILD_CHECK', 'ok')
})
afterEach(async () => {
  vi.unstubAllEnvs()
  await rm(distDir, { recursive: true, force: true })
})

/** How the process ended. */
function ended(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
}

/** The API calls the sandbox served, the token's left out. */
async function apiCalls(): Promise<Record<string, number>> {
  const { 'token.published': _token, ...api } = (await sb.stats()).operations
  return api
}

describe('the fetch ahead of the pages', () => {
  it('waits until next build has emptied the build folder, then fetches what the workers read without a call', async () => {
    // The process is a child of this one, which it names the build after, as a build worker would.
    const child = await forkFetchAhead(folder, true)
    const exit = ended(child)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(await apiCalls()).toEqual({})
    await rm(folder, { recursive: true })
    expect(await exit).toBe(0)
    expect(await apiCalls()).toEqual({ 'products.list': 1, 'products.reviews.list': 15 })

    vi.stubEnv('NEXT_PHASE', 'phase-production-build')
    const data = await getBuildData()
    expect(data?.productIds).toHaveLength(60)
    expect(data?.fetchedHere).toBe(false)
    expect(data?.reviews('SKU-002')).toHaveLength(19)
    expect(await apiCalls()).toEqual({ 'products.list': 1, 'products.reviews.list': 15 })
  })

  it('leaves a failed fetch to the pages, which fetch again and get the data', async () => {
    await sb.faults([{ operation: 'products.reviews.list', status: 400, count: 1 }])
    const child = await forkFetchAhead(folder, false)
    expect(await ended(child)).toBe(0)
    expect((await apiCalls())['products.reviews.list']).toBe(1)

    vi.stubEnv('NEXT_PHASE', 'phase-production-build')
    const data = await getBuildData()
    expect(data?.fetchedHere).toBe(true)
    expect(data?.calls).toEqual({ reviews: 15, summaries: 1 })
  })

  it('ends without a call when next build ends before emptying the folder', async () => {
    const child = await forkFetchAhead(folder, true)
    const exit = ended(child)
    await new Promise((resolve) => setTimeout(resolve, 300))
    child.disconnect()
    expect(await exit).toBe(0)
    expect(await apiCalls()).toEqual({})
  })
})

describe('fetchesAhead', () => {
  const nextBuild = { title: 'next-build (v16.4.6)', argv: ['node', 'next', 'build'], env: {} }

  it("is next build's own process, in its default mode, after a check that passed", () => {
    expect(fetchesAhead(nextBuild)).toBe(true)
    expect(
      fetchesAhead({ ...nextBuild, argv: ['node', 'next', 'build', '--experimental-build-mode=default'] }),
    ).toBe(true)
  })

  it('is not a build worker, another process, a build mode that renders no page or a failed check', () => {
    expect(fetchesAhead({ ...nextBuild, env: { IS_NEXT_WORKER: 'true' } })).toBe(false)
    expect(fetchesAhead({ ...nextBuild, title: 'node' })).toBe(false)
    expect(
      fetchesAhead({ ...nextBuild, argv: ['node', 'next', 'build', '--experimental-build-mode', 'compile'] }),
    ).toBe(false)
    expect(
      fetchesAhead({ ...nextBuild, argv: ['node', 'next', 'build', '--experimental-build-mode=generate'] }),
    ).toBe(false)
    vi.stubEnv('__VERIFIED_REVIEWS_BUILD_CHECK', 'VERIFIED_REVIEWS_CLIENT_ID is not set')
    expect(fetchesAhead(nextBuild)).toBe(false)
  })

  it('is false once this process or the one that started it started the fetch', () => {
    vi.stubEnv('__VERIFIED_REVIEWS_BUILD_AHEAD', '4242')
    expect(fetchesAhead(nextBuild)).toBe(false)
  })

  it('is false after handBuildAhead, which records the pid of the process that started the fetch', () => {
    vi.stubEnv('__VERIFIED_REVIEWS_BUILD_AHEAD', undefined)
    expect(fetchesAhead(nextBuild)).toBe(true)
    handBuildAhead()
    expect(process.env.__VERIFIED_REVIEWS_BUILD_AHEAD).toBe(String(process.pid))
    expect(fetchesAhead(nextBuild)).toBe(false)
  })
})
