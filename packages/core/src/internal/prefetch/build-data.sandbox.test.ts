import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import { openSqliteFile } from '../base/sqlite.ts'
import { createMemoryReviewStore } from '../sync/memory-store.ts'
import { prefetchBuildData } from './build-data.ts'
import { holdRun } from './run-once.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
let directory: string

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'vr-prefetch-'))
})
afterEach(async () => {
  await rm(directory, { recursive: true, force: true })
})

async function stats(): Promise<Record<string, number>> {
  return (await sb.stats()).operations
}

const CATALOGUE = Array.from({ length: 60 }, (_, i) => `SKU-${String(i + 1).padStart(3, '0')}`)
const ENTRY = fileURLToPath(new URL('../../prefetch.ts', import.meta.url))

/** Runs the prefetch in a separate Node process, as a build worker would, and returns what it printed. */
function worker(options: {
  buildId?: string
  fail?: boolean
}): Promise<{ code: number | null; out: string }> {
  const script = `
    import { appendFile } from 'node:fs/promises'
    import { prefetchBuildData } from ${JSON.stringify(ENTRY)}
    const client = {
      products: {
        reviews: {
          list: async (p) => {
            ${
              options.fail
                ? `await appendFile(${JSON.stringify(join(directory, 'attempts.log'))}, 'attempt\\n')
            throw new Error('the API is down')`
                : 'return real.products.reviews.list(p)'
            }
          },
        },
        list: (p) => real.products.list(p),
      },
    }
    const { createClient } = await import(${JSON.stringify(fileURLToPath(new URL('../../index.ts', import.meta.url)))})
    const real = createClient(${JSON.stringify({ origin: sb.sandbox.origin, clientId: sb.sandbox.clientId, clientSecret: sb.sandbox.clientSecret })})
    try {
      const data = await prefetchBuildData({ client, directory: ${JSON.stringify(directory)}, productIds: ${JSON.stringify(CATALOGUE)}${options.buildId ? `, buildId: ${JSON.stringify(options.buildId)}` : ''} })
      console.log(JSON.stringify({ fetchedHere: data.fetchedHere, reviews: data.reviews('SKU-058').length }))
    } catch (error) {
      console.log(JSON.stringify({ error: error.message }))
      process.exitCode = 3
    }
  `
  return new Promise((resolve, reject) => {
    const file = join(directory, `worker-${Math.random().toString(36).slice(2)}.mjs`)
    writeFile(file, script).then(() => {
      const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'inherit'] })
      let out = ''
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
      })
      child.on('error', reject)
      child.on('close', (code) => resolve({ code, out: out.trim() }))
    }, reject)
  })
}

describe('prefetchBuildData', () => {
  it('fetches every review and every summary of the catalogue at 200 per call', async () => {
    const data = await prefetchBuildData({ client: sb.client(), directory, productIds: CATALOGUE })
    expect(await stats()).toEqual({ 'products.list': 1, 'products.reviews.list': 15, 'token.published': 1 })
    expect(data.calls).toEqual({ reviews: 15, summaries: 1 })
    expect(data.fetchedHere).toBe(true)
    expect(data.reviews('SKU-058')).toHaveLength(681)
    expect(data.summary('SKU-058')?.ratings.count_total).toBe(681)
  })

  it('lists a product reviews newest first', async () => {
    const data = await prefetchBuildData({ client: sb.client(), directory, productIds: CATALOGUE })
    const dates = data.reviews('SKU-001').map((review) => review.publish_date)
    expect(dates).toEqual([...dates].sort().reverse())
  })

  it('answers an empty list for a product without reviews and no summary for an unknown product', async () => {
    const data = await prefetchBuildData({
      client: sb.client(),
      directory,
      productIds: [...CATALOGUE, 'SKU-999'],
    })
    expect(data.reviews('SKU-012')).toEqual([])
    expect(data.summary('SKU-012')?.ratings.count_total).toBe(0)
    expect(data.summary('SKU-999')).toBeUndefined()
  })

  it('asks for the summaries of a larger catalogue 200 products per call', async () => {
    const ids = Array.from({ length: 401 }, (_, i) => `SKU-${String(i + 1).padStart(3, '0')}`)
    const data = await prefetchBuildData({ client: sb.client(), directory, productIds: ids })
    expect(data.calls.summaries).toBe(3)
    expect(data.productIds).toEqual(CATALOGUE)
  })

  it('walks every product of the account when no catalogue is given', async () => {
    const data = await prefetchBuildData({ client: sb.client(), directory })
    expect(data.productIds).toHaveLength(60)
    expect(data.calls.summaries).toBe(1)
  })

  it('shares one fetch between concurrent calls of a process', async () => {
    const options = { client: sb.client(), directory, productIds: CATALOGUE }
    const [a, b] = await Promise.all([prefetchBuildData(options), prefetchBuildData(options)])
    expect(a).toBe(b)
    expect((await stats())['products.reviews.list']).toBe(15)
  })

  it('lets exactly one of several processes fetch while the others read its data', async () => {
    const results = await Promise.all([worker({}), worker({}), worker({}), worker({})])
    const answers = results.map(
      (result) => JSON.parse(result.out) as { fetchedHere: boolean; reviews: number },
    )
    expect(answers.filter((answer) => answer.fetchedHere)).toHaveLength(1)
    expect(answers.every((answer) => answer.reviews === 681)).toBe(true)
    expect(await stats()).toEqual({ 'products.list': 1, 'products.reviews.list': 15, 'token.published': 1 })
  })

  it('makes the waiting processes fail with the error of the one that fetched, without fetching again', async () => {
    const results = await Promise.all([
      worker({ fail: true }),
      worker({ fail: true }),
      worker({ fail: true }),
    ])
    expect(results.map((result) => result.code)).toEqual([3, 3, 3])
    for (const result of results) expect(result.out).toContain('the API is down')
    expect(await readFile(join(directory, 'attempts.log'), 'utf8')).toBe('attempt\n')
  })

  it('writes each review once, in the review store of the file every process reads', async () => {
    const data = await prefetchBuildData({ client: sb.client(), directory, productIds: CATALOGUE })
    expect((await readdir(directory)).sort()).toEqual([
      'reviews.sqlite',
      'reviews.sqlite-shm',
      'reviews.sqlite-wal',
    ])
    const file = new DatabaseSync(join(directory, 'reviews.sqlite'), { readOnly: true })
    try {
      expect(file.prepare('SELECT count(*) AS n FROM reviews').get()).toEqual({ n: 3000 })
      expect(file.prepare('SELECT count(*) AS n FROM build_reviews').get()).toEqual({ n: 0 })
    } finally {
      file.close()
    }
    const list = data.reviews('SKU-058')
    // Each call reads afresh: changing a list read never changes the next one.
    list.pop()
    expect(data.reviews('SKU-058')).toHaveLength(681)
  })

  it('copies into the file, once, the reviews it fetched into a store of its own', async () => {
    const data = await prefetchBuildData({
      client: sb.client(),
      directory,
      productIds: CATALOGUE,
      store: createMemoryReviewStore(),
    })
    expect(data.reviews('SKU-058')).toHaveLength(681)
    const file = new DatabaseSync(join(directory, 'reviews.sqlite'), { readOnly: true })
    try {
      expect(file.prepare('SELECT count(*) AS n FROM build_reviews').get()).toEqual({ n: 3000 })
    } finally {
      file.close()
    }
  })

  it('takes over the fetch of a process that is gone', async () => {
    const file = await openSqliteFile(join(directory, 'reviews.sqlite'), 5000)
    // Process ids are below 2^22 on Linux: this one cannot be running.
    holdRun(file, 'build', { pid: 2 ** 22 + 1, host: hostname(), since: Date.now() })
    file.close()
    const data = await prefetchBuildData({ client: sb.client(), directory, productIds: CATALOGUE })
    expect(data.fetchedHere).toBe(true)
    expect(data.reviews('SKU-058')).toHaveLength(681)
  })

  it('gives up waiting for the fetch of a live process after waitTimeout', async () => {
    const file = await openSqliteFile(join(directory, 'reviews.sqlite'), 5000)
    holdRun(file, 'build', { pid: process.pid, host: hostname(), since: Date.now() })
    file.close()
    await expect(
      prefetchBuildData({ client: sb.client(), directory, productIds: CATALOGUE, waitTimeout: 200 }),
    ).rejects.toThrow(/gave up after waiting 200 ms/)
  })

  it('starts from the kept file, syncs incrementally, and keeps its own file for the next build', async () => {
    const keptFile = join(directory, 'cache', 'build.sqlite')
    const build = async (folder: string, buildId: string) => {
      const before = await stats()
      const data = await prefetchBuildData({
        client: sb.client(),
        directory: join(directory, folder),
        buildId,
        keptFile,
      })
      const after = await stats()
      return {
        data,
        reviewCalls: (after['products.reviews.list'] ?? 0) - (before['products.reviews.list'] ?? 0),
      }
    }
    const first = await build('one', 'first')
    expect(first.data.report).toMatchObject({ mode: 'full' })
    const second = await build('two', 'second')
    expect(second.data.report).toMatchObject({ mode: 'incremental', newReviews: 0 })
    expect(second.reviewCalls).toBe(1)
    expect(second.data.reviews('SKU-058')).toEqual(first.data.reviews('SKU-058'))
    expect(second.data.summary('SKU-058')).toEqual(first.data.summary('SKU-058'))
    // The kept file alone, whole (no temporary copy, no journal beside it).
    expect((await readdir(join(directory, 'cache'))).sort()).toEqual(['build.sqlite'])
    // What the first build recorded of itself is not in the second build's file, nor in the kept one.
    for (const file of [join(directory, 'two', 'reviews.sqlite'), keptFile]) {
      const db = new DatabaseSync(file, { readOnly: true })
      try {
        expect(db.prepare("SELECT count(*) AS n FROM build_summaries WHERE build = 'first'").get()).toEqual({
          n: 0,
        })
        expect(db.prepare("SELECT count(*) AS n FROM runs WHERE id = 'first'").get()).toEqual({ n: 0 })
        expect(db.prepare('SELECT count(*) AS n FROM reviews').get()).toEqual({ n: 3000 })
      } finally {
        db.close()
      }
    }
    expect((await readdir(join(directory, 'two'))).filter((name) => name.includes('.kept-'))).toEqual([])
  })

  it('syncs in full, with a warning, when the kept file cannot be read, then keeps a good one', async () => {
    const keptFile = join(directory, 'cache', 'build.sqlite')
    await mkdir(join(directory, 'cache'))
    await writeFile(keptFile, 'not a database')
    const warnings: string[] = []
    const logger = { warn: (message: string) => warnings.push(message) }
    const build = (folder: string) =>
      prefetchBuildData({ client: sb.client(), directory: join(directory, folder), keptFile, logger })
    const data = await build('one')
    expect(data.report).toMatchObject({ mode: 'full' })
    expect(data.reviews('SKU-058')).toHaveLength(681)
    expect(warnings).toEqual([expect.stringContaining(`The kept build data ${keptFile} could not be read`)])
    const next = await build('two')
    expect(next.report).toMatchObject({ mode: 'incremental' })
    expect(warnings).toHaveLength(1)
  })

  it('reads the data of its own build only', async () => {
    const first = await worker({ buildId: 'one' })
    const second = await worker({ buildId: 'two' })
    expect(JSON.parse(first.out)).toMatchObject({ fetchedHere: true })
    expect(JSON.parse(second.out)).toMatchObject({ fetchedHere: true })
  })
})
