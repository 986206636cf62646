import { mkdtemp, rm } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DatabaseSync } from 'node:sqlite'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSqliteFile } from '../base/sqlite.ts'
import { holdRun, type PrefetchShare, type RunOnceOptions, runOnce, runOnceShared } from './run-once.ts'

let directory: string
let db: DatabaseSync
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'vr-run-once-'))
  db = await openSqliteFile(join(directory, 'build.sqlite'), 5000)
})
afterEach(async () => {
  db.close()
  await rm(directory, { recursive: true, force: true })
})

describe('runOnce', () => {
  const options = (produce: () => Promise<string>): RunOnceOptions => ({
    db,
    name: 'build',
    file: 'build.sqlite',
    produce,
    waitTimeout: 300,
    staleLockTimeout: 60_000,
    pollInterval: 10,
  })

  it('runs once, and a later call reads what the run answered', async () => {
    expect(await runOnce(options(async () => 'data'))).toEqual({ value: 'data', produced: true })
    expect(await runOnce(options(async () => 'again'))).toEqual({ value: 'data', produced: false })
  })

  it('fails with the failure another process recorded, without running', async () => {
    holdRun(db, 'build', { pid: 4242, host: hostname(), since: Date.now() })
    db.prepare(`UPDATE runs SET state = 'failed', json = 'Error: the API is down'`).run()
    let produced = 0
    const run = runOnce(
      options(async () => {
        produced += 1
        return 'data'
      }),
    )
    await expect(run).rejects.toThrow(/the prefetch failed in process 4242: Error: the API is down/)
    expect(produced).toBe(0)
  })

  it('records its failure, so that a later call fails with it', async () => {
    await expect(runOnce(options(() => Promise.reject(new Error('down'))))).rejects.toThrow('down')
    await expect(runOnce(options(async () => 'data'))).rejects.toThrow(
      `the prefetch failed in process ${process.pid}: Error: down`,
    )
  })

  it('lets go of the run when it fails with releaseOnFailure, so that a later call runs it itself', async () => {
    const ahead = { ...options(() => Promise.reject(new Error('down'))), releaseOnFailure: true }
    await expect(runOnce(ahead)).rejects.toThrow('down')
    expect(db.prepare('SELECT count(*) AS runs FROM runs').get()).toEqual({ runs: 0 })
    expect(await runOnce(options(async () => 'data'))).toEqual({ value: 'data', produced: true })
  })

  it('takes over a run whose process is gone', async () => {
    // Process ids are below 2^22 on Linux: this one cannot be running.
    holdRun(db, 'build', { pid: 2 ** 22 + 1, host: hostname(), since: Date.now() })
    expect(await runOnce(options(async () => 'data'))).toEqual({ value: 'data', produced: true })
  })

  it('takes over a run older than staleLockTimeout, its process alive or not', async () => {
    holdRun(db, 'build', { pid: process.pid, host: 'another-host', since: Date.now() - 120_000 })
    expect(await runOnce(options(async () => 'data'))).toEqual({ value: 'data', produced: true })
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
