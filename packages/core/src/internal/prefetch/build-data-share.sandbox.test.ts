import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import { prefetchBuildData } from './build-data.ts'
import type { PrefetchShare } from './run-once.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
const CATALOGUE = Array.from({ length: 60 }, (_, i) => `SKU-${String(i + 1).padStart(3, '0')}`)

// Each "machine" has its own directory: only the share connects them.
let machines: string[]
beforeEach(async () => {
  machines = await Promise.all([1, 2, 3].map(() => mkdtemp(join(tmpdir(), 'vr-prefetch-share-'))))
})
afterEach(async () => {
  await Promise.all(machines.map((directory) => rm(directory, { recursive: true, force: true })))
})

/** A share in memory, as Redis is for several machines. */
function memoryShare(): PrefetchShare & { texts: Map<string, string> } {
  const texts = new Map<string, string>()
  const locks = new Set<string>()
  return {
    texts,
    get: async (name) => texts.get(name),
    set: async (name, text) => {
      texts.set(name, text)
    },
    lock: async (name) => {
      if (locks.has(name)) return undefined
      locks.add(name)
      return { release: async () => void locks.delete(name) }
    },
  }
}

describe('prefetchBuildData with a share', () => {
  it('lets exactly one machine fetch while the others read its data from the share', async () => {
    const share = memoryShare()
    const results = await Promise.all(
      machines.map((directory) =>
        prefetchBuildData({ client: sb.client(), directory, buildId: 'ci-42', share, productIds: CATALOGUE }),
      ),
    )
    expect(results.filter((data) => data.fetchedHere)).toHaveLength(1)
    expect(results.map((data) => data.reviews('SKU-058').length)).toEqual([681, 681, 681])
    expect((await sb.stats()).operations).toEqual({
      'products.list': 1,
      'products.reviews.list': 15,
      'token.published': 1,
    })
  })

  it('leaves no lock file on the machines, the share holding the data', async () => {
    const share = memoryShare()
    await prefetchBuildData({
      client: sb.client(),
      directory: machines[0] as string,
      buildId: 'ci-43',
      share,
      productIds: CATALOGUE,
    })
    expect(await readdir(machines[0] as string)).toEqual([])
    expect([...share.texts.keys()]).toEqual(['prefetch:ci-43'])
  })

  it('falls back to the SQLite file of each machine with one warning when the share fails', async () => {
    const down = new Error('redis is down')
    const failing: PrefetchShare = {
      get: () => Promise.reject(down),
      set: () => Promise.reject(down),
      lock: () => Promise.reject(down),
    }
    const warn = vi.fn()
    const data = await prefetchBuildData({
      client: sb.client(),
      directory: machines[0] as string,
      buildId: 'ci-44',
      share: failing,
      productIds: CATALOGUE,
      logger: { warn },
    })
    expect(data.reviews('SKU-058')).toHaveLength(681)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toContain('redis is down')
    expect((await readdir(machines[0] as string)).sort()).toEqual([
      'reviews.sqlite',
      'reviews.sqlite-shm',
      'reviews.sqlite-wal',
    ])
  })

  it('keeps the data it fetched when only storing it in the share fails', async () => {
    const share = memoryShare()
    const readOnly: PrefetchShare = { ...share, set: () => Promise.reject(new Error('redis is down')) }
    const data = await prefetchBuildData({
      client: sb.client(),
      directory: machines[0] as string,
      buildId: 'ci-45',
      share: readOnly,
      productIds: CATALOGUE,
    })
    expect(data.fetchedHere).toBe(true)
    expect((await sb.stats()).operations['products.reviews.list']).toBe(15)
  })

  it('fetches again when the shared data is not usable', async () => {
    const share = memoryShare()
    share.texts.set('prefetch:ci-46', '{"format":"something else"}')
    const warn = vi.fn()
    const data = await prefetchBuildData({
      client: sb.client(),
      directory: machines[0] as string,
      buildId: 'ci-46',
      share,
      productIds: CATALOGUE,
      logger: { warn },
    })
    expect(data.fetchedHere).toBe(true)
    expect(warn).toHaveBeenCalled()
    expect(JSON.parse(share.texts.get('prefetch:ci-46') ?? '{}').buildId).toBe('ci-46')
  })

  it('makes the machines waiting fail with the error of the one that fetched, without fetching again', async () => {
    const share = memoryShare()
    let attempts = 0
    const failingClient = {
      products: {
        reviews: {
          list: async () => {
            attempts++
            await new Promise((resolve) => setTimeout(resolve, 100))
            throw new Error('the API is down')
          },
        },
        list: async () => {
          attempts++
          await new Promise((resolve) => setTimeout(resolve, 100))
          throw new Error('the API is down')
        },
      },
    }
    const results = await Promise.allSettled(
      machines.map((directory) =>
        prefetchBuildData({
          client: failingClient,
          directory,
          buildId: 'ci-47',
          share,
          productIds: CATALOGUE,
        }),
      ),
    )
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected'])
    for (const result of results)
      expect(String((result as PromiseRejectedResult).reason)).toContain('the API is down')
    expect(attempts).toBe(1)
  })
})
