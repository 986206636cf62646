import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type PrefetchShare, runOnce, runOnceShared } from './lock.ts'

let directory: string
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'vr-lock-'))
})
afterEach(async () => {
  await rm(directory, { recursive: true, force: true })
})

describe('runOnce', () => {
  it('fails with the failure another process recorded between its first look and taking the lock', async () => {
    const failurePath = join(directory, 'build.failed.json')
    let produced = 0
    let looks = 0
    const run = runOnce<string>({
      lockPath: join(directory, 'build.lock'),
      failurePath,
      // The other process fails and lets go of the lock after this process's first looks: its second
      // look, once it holds the lock, is the first to see the failure.
      read: async () => {
        looks += 1
        if (looks === 2)
          await writeFile(failurePath, JSON.stringify({ pid: 4242, message: 'the API is down' }))
        return undefined
      },
      produce: async () => {
        produced += 1
        return 'data'
      },
      waitTimeout: 5_000,
      staleLockTimeout: 60_000,
      pollInterval: 10,
    })
    await expect(run).rejects.toThrow(/the prefetch failed in process 4242: the API is down/)
    expect(produced).toBe(0)
  })
})

describe('runOnceShared', () => {
  it('fails with the failure another process stored between its first look and taking the lock', async () => {
    const values = new Map<string, string>()
    const share: PrefetchShare = {
      async get(key) {
        return values.get(key)
      },
      async set(key, value) {
        values.set(key, value)
      },
      // The other process fails and lets go of the lock just before this one takes it.
      async lock() {
        values.set('build.failed', JSON.stringify({ at: Date.now(), message: 'down' }))
        return { release: async () => {} }
      },
    }
    let produced = 0
    const run = runOnceShared<string>({
      share,
      name: 'build',
      parse: (text) => text,
      serialize: (value) => value,
      produce: async () => {
        produced += 1
        return 'data'
      },
      waitTimeout: 5_000,
      pollInterval: 10,
    })
    await expect(run).rejects.toThrow(/the prefetch failed in another process: down/)
    expect(produced).toBe(0)
  })
})
