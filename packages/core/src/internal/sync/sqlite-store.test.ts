import { execFile } from 'node:child_process'
import { access, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { reviewStoreContract } from '../../../../../test/fixtures/review-store-contract.ts'
import type { BrandReview, ProductReview } from '../../types/published.ts'
import { parseJsonArray, rawJson } from '../transport/json-items.ts'
import {
  BULK_MS,
  BULK_ROWS,
  createSqliteReviewStore,
  type SqliteReviewStore,
  viewSql,
} from './sqlite-store.ts'

const opened: { close(): Promise<void> }[] = []
const directories: string[] = []
async function freshFile(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'vr-sqlite-store-'))
  directories.push(directory)
  return join(directory, 'reviews.sqlite')
}
function track<S extends { close(): Promise<void> }>(store: S): S {
  opened.push(store)
  return store
}
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()))
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })))
})

/** The indexes of `file` that SQLite did not make itself, each as `name: SQL` (spaces folded), by name. */
async function indexesOf(file: string): Promise<string[]> {
  const { DatabaseSync } = await import('node:sqlite')
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    return db
      .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`)
      .all()
      .map((row) => `${String(row.name)}: ${String(row.sql).replace(/\s+/g, ' ')}`)
  } finally {
    db.close()
  }
}

const files = new WeakMap<object, string>()
reviewStoreContract('createSqliteReviewStore', {
  products: async () => {
    const file = await freshFile()
    const store = track(createSqliteReviewStore(file))
    files.set(store, file)
    return store
  },
  brands: async () => track(createSqliteReviewStore<BrandReview>(await freshFile())),
  reopen: (store) => track(createSqliteReviewStore(files.get(store) ?? '')),
})

const review = (id: string, product: string, content = id) =>
  ({
    review_id: id,
    product_variation_id: product,
    publish_date: '2025-01-01T00:00:00Z',
    review_content: content,
  }) as ProductReview

const checkpoint = (phase: 'full' | 'idle', newReviews: number) => ({
  phase,
  newReviews,
  updatedReviews: 0,
  affected: ['P1'],
})

describe('createSqliteReviewStore', () => {
  let file: string
  beforeEach(async () => {
    file = await freshFile()
  })
  const stores: SqliteReviewStore[] = []
  const open = (...args: Parameters<typeof createSqliteReviewStore>) => {
    const store = createSqliteReviewStore(...args)
    stores.push(store)
    return store
  }
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()))
  })

  it("reads one product's page in the index's order, sorting no more than ties, where several products are sorted", async () => {
    const store = open(file)
    await store.putMany([review('a', 'P1')], checkpoint('full', 1))
    const { DatabaseSync } = await import('node:sqlite')
    const db = new DatabaseSync(file, { readOnly: true })
    try {
      const plan = (order: 'newest' | 'oldest' | 'highest' | 'lowest', single: boolean) =>
        db
          .prepare(`EXPLAIN QUERY PLAN ${viewSql('reviews', order, 'after', false, single)}`)
          .all(...(single ? ['P1'] : ['["P1","P2"]']), 0, 0, '', 10)
          .map((row) => String(row.detail))
      for (const order of ['newest', 'oldest', 'highest', 'lowest'] as const) {
        // A whole sort reads every review of the product (their stored form too) before the first row.
        expect(plan(order, true)).not.toContain('USE TEMP B-TREE FOR ORDER BY')
        expect(plan(order, false)).toContain('USE TEMP B-TREE FOR ORDER BY')
      }
      // The newest first, the order every page opens on, streams from its index: not even ties are sorted.
      expect(plan('newest', true).join(' ')).not.toContain('TEMP B-TREE')
      expect(plan('newest', true).join(' ')).toContain('reviews_newest')
    } finally {
      db.close()
    }
  })

  it('leaves the view indexes out during a bulk load, reads the same pages meanwhile, and builds them at its end or on the next opening', async () => {
    const indexes = async () => (await indexesOf(file)).map((index) => index.slice(0, index.indexOf(':')))
    const page = (store: SqliteReviewStore) =>
      store.query({ keys: ['P1'], order: 'newest', rates: [], limit: 2 }).then(({ data, more }) => ({
        ids: data.map((item) => item.review_id),
        more,
      }))
    const store = open(file)
    const end = await store.bulkLoad()
    expect(await indexes()).toEqual([])
    const dated = (id: string, day: number) => ({
      ...review(id, 'P1'),
      publish_date: `2025-01-0${day}T00:00:00Z`,
    })
    await store.putMany(
      [dated('a', 1), dated('b', 3), dated('c', 2), review('d', 'P2')],
      checkpoint('full', 4),
    )
    expect(await page(store)).toEqual({ ids: ['b', 'c'], more: true })
    await end()
    expect(await indexes()).toEqual(['reviews_by_rate', 'reviews_newest'])
    expect(await page(store)).toEqual({ ids: ['b', 'c'], more: true })
    await end()
    // A bulk load its process never ended: the next opening of the file makes the indexes.
    await store.bulkLoad()
    expect(await indexes()).toEqual([])
    await store.close()
    const reopened = open(file)
    expect(await page(reopened)).toEqual({ ids: ['b', 'c'], more: true })
    expect(await indexes()).toEqual(['reviews_by_rate', 'reviews_newest'])
  })

  /** What another connection sees of the file: the reviews' ids and the checkpoint's count of new reviews. */
  const committed = async () => {
    const { DatabaseSync } = await import('node:sqlite')
    const db = new DatabaseSync(file, { readOnly: true })
    try {
      const ids = db
        .prepare('SELECT id FROM reviews ORDER BY id')
        .all()
        .map((row) => String(row.id))
      const saved = db.prepare('SELECT json FROM reviews_checkpoint').get()
      return { ids, newReviews: saved === undefined ? undefined : JSON.parse(String(saved.json)).newReviews }
    } finally {
      db.close()
    }
  }
  const many = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => review(`${prefix}${String(i).padStart(5, '0')}`, 'P1'))

  it("holds a bulk load's pages and writes them at once when they reach BULK_ROWS reviews, BULK_MS pass, another kind of call comes or the load ends", async () => {
    const store = open(file)
    const end = await store.bulkLoad()
    await store.putMany([review('a', 'P1'), review('b', 'P2')], checkpoint('full', 2))
    await store.putMany([review('c', 'P1')], checkpoint('full', 3))
    // Not yet in the file, but read back by this store (as a sync compares a page with what is held).
    expect(await committed()).toEqual({ ids: [], newReviews: undefined })
    expect((await store.getMany(['a', 'c', 'x'])).map((held) => held?.review_id)).toEqual([
      'a',
      'c',
      undefined,
    ])
    // The timer: written BULK_MS after the first page held, with no call.
    await sleep(BULK_MS + 300)
    expect(await committed()).toEqual({ ids: ['a', 'b', 'c'], newReviews: 3 })
    // BULK_ROWS reviews: written by the page that reaches them.
    await store.putMany(many('m', BULK_ROWS), checkpoint('full', 3 + BULK_ROWS))
    expect((await committed()).ids).toHaveLength(3 + BULK_ROWS)
    // Another kind of call writes them first.
    await store.putMany([review('d', 'P3')], checkpoint('full', 4 + BULK_ROWS))
    expect((await committed()).ids).not.toContain('d')
    expect(await store.count()).toBe(4 + BULK_ROWS)
    expect(await committed()).toMatchObject({ newReviews: 4 + BULK_ROWS })
    expect((await committed()).ids).toContain('d')
    // The end of the load.
    await store.putMany([review('e', 'P3')], checkpoint('idle', 5 + BULK_ROWS))
    await end()
    expect(await committed()).toMatchObject({ newReviews: 5 + BULK_ROWS })
    expect((await committed()).ids).toContain('e')
  })

  it("drops a bulk load's held pages with their checkpoint when writing them fails, and throws from that call, so that the file keeps its last written page and that page's checkpoint", async () => {
    const store = open(file)
    const end = await store.bulkLoad()
    await store.putMany([review('a', 'P1')], checkpoint('full', 1))
    expect(await store.count()).toBe(1)
    await store.putMany([review('b', 'P1')], checkpoint('full', 2))
    const broken = { ...review('c', 'P1'), product_variation_id: undefined } as unknown as ProductReview
    await store.putMany([review('d', 'P1'), broken], checkpoint('full', 4))
    await expect(store.count()).rejects.toThrow()
    expect(await committed()).toEqual({ ids: ['a'], newReviews: 1 })
    expect(await store.getCheckpoint()).toEqual(checkpoint('full', 1))
    // The load goes on from there.
    await store.putMany([review('b', 'P1')], checkpoint('idle', 2))
    await end()
    expect(await committed()).toEqual({ ids: ['a', 'b'], newReviews: 2 })
  })

  it('lets another connection of this process write to the file at once while a bulk load holds pages', async () => {
    const store = open(file)
    const other = open(file, { busyTimeout: 100 })
    const end = await store.bulkLoad()
    await store.putMany([review('a', 'P1')], checkpoint('full', 1))
    // No transaction is left open across calls: a write of another connection never waits for one.
    await other.putMany([review('x', 'P9')])
    expect(await committed()).toMatchObject({ ids: ['x'] })
    await end()
    expect(await committed()).toEqual({ ids: ['a', 'x'], newReviews: 1 })
  })

  it("writes a bulk load's held pages when the store closes", async () => {
    const store = open(file)
    await store.bulkLoad()
    await store.putMany([review('a', 'P1')], checkpoint('full', 1))
    expect(await committed()).toEqual({ ids: [], newReviews: undefined })
    await store.close()
    expect(await committed()).toEqual({ ids: ['a'], newReviews: 1 })
    expect(await open(file).count()).toBe(1)
  })

  it('lets two stores over one file see each other’s writes', async () => {
    const first = open(file)
    const second = open(file)
    await first.putMany([review('a', 'P1')], checkpoint('full', 1))
    expect((await second.get('a'))?.review_content).toBe('a')
    await second.putMany([review('a', 'P1', 'edited'), review('b', 'P2')], checkpoint('idle', 2))
    expect((await first.get('a'))?.review_content).toBe('edited')
    expect(await first.keys()).toEqual(['P1', 'P2'])
    expect(await first.getCheckpoint()).toEqual(checkpoint('idle', 2))
  })

  it('stores the JSON a sync page kept for a review, compressed in the stored form of version 1', async () => {
    const store = open(file)
    // Written by a sync: the answer's bytes (here with spaces and a key order JSON.stringify would not give).
    const [fromPage] = parseJsonArray(
      new TextEncoder().encode(
        '[{ "review_content": "Très bien", "product_variation_id": "P1", "review_id": "a" }]',
      ),
      (item, json) => rawJson.set(item as object, json),
    ) as ProductReview[]
    await store.putMany([fromPage as ProductReview, review('b', 'P1')])
    expect(await store.get('a')).toEqual({
      review_id: 'a',
      product_variation_id: 'P1',
      review_content: 'Très bien',
    })
    expect((await store.list('P1')).map((row) => row.review_id).sort()).toEqual(['a', 'b'])
    const { DatabaseSync } = await import('node:sqlite')
    const db = new DatabaseSync(file, { readOnly: true })
    try {
      expect(
        db
          .prepare(
            'SELECT DISTINCT typeof(review) AS type, substr(hex(review), 1, 2) AS version FROM reviews',
          )
          .all(),
      ).toEqual([{ type: 'blob', version: '01' }])
    } finally {
      db.close()
    }
  })

  it("stores a bulk load's reviews as the JSON text the page kept, and compresses what is written after its end", async () => {
    const store = open(file)
    const end = await store.bulkLoad()
    const text = '{ "review_content": "Très bien 👍", "product_variation_id": "P1", "review_id": "a" }'
    const [fromPage] = parseJsonArray(new TextEncoder().encode(`[${text}]`), (item, json) =>
      rawJson.set(item as object, json),
    ) as ProductReview[]
    await store.putMany([fromPage as ProductReview, review('b', 'P1', 'Gut')], checkpoint('full', 2))
    await end()
    await store.putMany([review('c', 'P2', 'Bien')], checkpoint('idle', 3))
    const { DatabaseSync } = await import('node:sqlite')
    const db = new DatabaseSync(file, { readOnly: true })
    try {
      const [a, b, c] = db
        .prepare('SELECT review FROM reviews ORDER BY id')
        .all()
        .map((row) => row.review as Uint8Array | string)
      // The page's own bytes (its spaces and key order), and JSON.stringify of a review that has none.
      expect(new TextDecoder().decode(a as Uint8Array)).toBe(text)
      expect(b).toBe(JSON.stringify(review('b', 'P1', 'Gut')))
      expect(c).toBeInstanceOf(Uint8Array)
      expect((c as Uint8Array)[0]).toBe(1)
    } finally {
      db.close()
    }
    expect((await store.list('P1')).map((row) => row.review_content).sort()).toEqual(['Gut', 'Très bien 👍'])
    expect(await store.get('c')).toEqual(review('c', 'P2', 'Bien'))
    const reopened = open(file)
    expect(await reopened.get('a')).toEqual({
      review_id: 'a',
      product_variation_id: 'P1',
      review_content: 'Très bien 👍',
    })
  })

  it("replaces an earlier version's ascending index of dates by the newest-first one on opening", async () => {
    const file = await freshFile()
    const dated = (id: string, day: number) => ({
      ...review(id, 'P1'),
      publish_date: `2025-01-0${day}T00:00:00Z`,
    })
    const first = track(createSqliteReviewStore(file))
    await first.putMany([dated('a', 1), dated('b', 3), dated('c', 2)], checkpoint('full', 3))
    await first.close()
    const { DatabaseSync } = await import('node:sqlite')
    const indexes = () => indexesOf(file)
    // The file as earlier versions left it: the dates' index ascending, under its old name.
    const old = new DatabaseSync(file)
    old.exec(`DROP INDEX reviews_newest; CREATE INDEX reviews_by_date ON reviews (key, published, id);`)
    old.close()
    expect(await indexes()).toEqual([
      'reviews_by_date: CREATE INDEX reviews_by_date ON reviews (key, published, id)',
      'reviews_by_rate: CREATE INDEX "reviews_by_rate" ON "reviews" (key, rate, id)',
    ])
    const store = track(createSqliteReviewStore(file))
    const page = await store.query({ keys: ['P1'], order: 'newest', rates: [], limit: 2 })
    expect(page.data.map((item) => item.review_id)).toEqual(['b', 'c'])
    expect(await indexes()).toEqual([
      'reviews_by_rate: CREATE INDEX "reviews_by_rate" ON "reviews" (key, rate, id)',
      'reviews_newest: CREATE INDEX "reviews_newest" ON "reviews" (key, published DESC, id)',
    ])
  })

  it('puts the reviews of a file written in JSON text in the stored form on opening, reading the same reviews', async () => {
    const file = await freshFile()
    const { DatabaseSync } = await import('node:sqlite')
    const old = new DatabaseSync(file)
    // The table as the previous version wrote it: the API's JSON (its spaces too) as text.
    old.exec(`CREATE TABLE reviews (id TEXT PRIMARY KEY, key TEXT NOT NULL, json TEXT NOT NULL,
                published INTEGER, rate INTEGER);
              CREATE INDEX reviews_by_date ON reviews (key, published, id);
              CREATE INDEX reviews_by_rate ON reviews (key, rate, id);`)
    const insert = old.prepare('INSERT INTO reviews (id, key, json, published, rate) VALUES (?, ?, ?, ?, ?)')
    const texts: string[] = []
    old.exec('BEGIN')
    for (let i = 0; i < 1001; i++) {
      const text = JSON.stringify({
        ...review(`r${String(i).padStart(4, '0')}`, `P${i % 7}`, `Très bien ${i} 👍`),
        review_rate: (i % 5) + 1,
      })
      texts.push(i === 0 ? text.replace('{', '{ ') : text)
      insert.run(
        `r${String(i).padStart(4, '0')}`,
        `P${i % 7}`,
        texts[i] as string,
        Date.parse('2025-01-01'),
        (i % 5) + 1,
      )
    }
    old.exec('COMMIT')
    old.close()
    const store = track(createSqliteReviewStore(file))
    expect((await store.all()).map((held) => JSON.stringify(held))).toEqual(
      texts.map((text) => JSON.stringify(JSON.parse(text))),
    )
    const page = await store.query?.({ keys: ['P3'], order: 'highest', rates: [5], limit: 3 })
    expect(page?.data.map((held) => held.review_rate)).toEqual([5, 5, 5])
    const db = new DatabaseSync(file, { readOnly: true })
    try {
      expect(
        db.prepare('SELECT typeof(review) AS type, count(*) AS n FROM reviews GROUP BY 1').all(),
      ).toEqual([{ type: 'blob', n: 1001 }])
    } finally {
      db.close()
    }
  })

  it('keeps every page when two processes write to one file at once', async () => {
    const store = open(file)
    await store.count()
    const module = pathToFileURL(join(import.meta.dirname, 'sqlite-store.ts')).href
    const child = promisify(execFile)(process.execPath, [
      '--input-type=module',
      '-e',
      `const { createSqliteReviewStore } = await import(${JSON.stringify(module)})
       const store = createSqliteReviewStore(${JSON.stringify(file)})
       for (let page = 0; page < 40; page++) {
         const reviews = Array.from({ length: 50 }, (_, i) =>
           ({ review_id: 'child-' + page + '-' + i, product_variation_id: 'C' + (i % 5), publish_date: '2025-01-01' }))
         await store.putMany(reviews, { phase: 'full', newReviews: page, updatedReviews: 0, affected: [] })
         await new Promise((resolve) => setTimeout(resolve, 1))
       }
       await store.close()`,
    ])
    let running = true
    const done = child.finally(() => {
      running = false
    })
    // The parent writes for as long as the child runs, so that their pages interleave.
    let pages = 0
    for (; running || pages < 40; pages++) {
      await store.putMany(Array.from({ length: 50 }, (_, i) => review(`parent-${pages}-${i}`, `P${i % 5}`)))
      await sleep(1)
    }
    const { stderr } = await done
    expect(stderr).toBe('')
    expect(await store.count()).toBe(2000 + pages * 50)
    expect(await store.keys()).toEqual(['C0', 'C1', 'C2', 'C3', 'C4', 'P0', 'P1', 'P2', 'P3', 'P4'])
    const order: string[] = []
    for await (const held of store.each()) order.push(held.review_id.startsWith('child') ? 'c' : 'p')
    expect(order.join('').replace(/c+/g, 'c').replace(/p+/g, 'p').length).toBeGreaterThan(2)
    expect((await store.getCheckpoint())?.newReviews).toBe(39)
  })

  it('stores nothing of a write that fails, neither reviews nor checkpoint', async () => {
    const store = open(file)
    await store.putMany([review('a', 'P1')])
    const unwritable = { ...review('c', 'P1'), helpful: 1n } as unknown as ProductReview
    await expect(
      store.putMany([review('a', 'P1', 'edited'), review('b', 'P2'), unwritable], checkpoint('full', 2)),
    ).rejects.toThrow(/BigInt/)
    expect(await store.count()).toBe(1)
    expect((await store.get('a'))?.review_content).toBe('a')
    expect(await store.getCheckpoint()).toBeUndefined()
    await store.putMany([review('b', 'P2')], checkpoint('idle', 1))
    expect(await store.count()).toBe(2)
  })

  it('reads every review in pages, and all() gives the same reviews', async () => {
    const store = open(file)
    const many = Array.from({ length: 2345 }, (_, i) => review(`r${i}`, `P${i % 9}`))
    await store.putMany(many)
    await store.putMany([review('r7', 'P1', 'edited')])
    const seen: string[] = []
    for await (const held of store.each()) seen.push(held.review_id)
    expect(seen).toHaveLength(2345)
    expect(new Set(seen).size).toBe(2345)
    expect((await store.all()).map((held) => held.review_id)).toEqual(seen)
  })

  it('gets more reviews than one query binds, each asked twice as two copies', async () => {
    const store = open(file)
    await store.putMany(Array.from({ length: 1200 }, (_, i) => review(`r${i}`, 'P1')))
    const ids = [...Array.from({ length: 1200 }, (_, i) => `r${i}`), 'missing', 'r0']
    const found = await store.getMany(ids)
    expect(found.map((held) => held?.review_id)).toEqual([...ids.slice(0, 1200), undefined, 'r0'])
    expect(found[0]).not.toBe(found[1201])
  })

  it('keeps product and brand reviews apart in one file under two names', async () => {
    const products = open(file)
    const brands = createSqliteReviewStore<BrandReview>(file, { name: 'brand_reviews' })
    await products.putMany([review('a', 'P1')])
    await brands.putMany([{ review_id: 'b', shop_key: '', publish_date: '2025-01-01' } as BrandReview])
    expect(await products.keys()).toEqual(['P1'])
    expect(await brands.keys()).toEqual([''])
    await brands.close()
  })

  it('adds the view columns to a file written before views, so that its views read its reviews', async () => {
    const file = await freshFile()
    const { DatabaseSync } = await import('node:sqlite')
    const old = new DatabaseSync(file)
    old.exec(`CREATE TABLE reviews (id TEXT PRIMARY KEY, key TEXT NOT NULL, json TEXT NOT NULL);
              CREATE INDEX reviews_by_key ON reviews (key);`)
    const insert = old.prepare('INSERT INTO reviews (id, key, json) VALUES (?, ?, ?)')
    for (const [id, rate] of [
      ['a', 2],
      ['b', 5],
      ['c', 4],
    ] as const) {
      const review = {
        review_id: id,
        product_variation_id: 'P1',
        publish_date: '2025-01-01T00:00:00Z',
        review_rate: rate,
      }
      insert.run(id, 'P1', JSON.stringify(review))
    }
    old.close()
    const store = track(createSqliteReviewStore(file))
    const page = await store.query?.({ keys: ['P1'], order: 'highest', rates: [], limit: 2 })
    expect(page?.data.map((review) => review.review_id)).toEqual(['b', 'c'])
    expect(page).toMatchObject({ more: true, less: false })
  })

  it('refuses a name that is not a plain identifier', () => {
    expect(() => createSqliteReviewStore(file, { name: 'x"; DROP TABLE reviews; --' })).toThrow(
      /name must be/,
    )
  })

  it('creates no file when closed before any use', async () => {
    await createSqliteReviewStore(file).close()
    await expect(access(file)).rejects.toThrow()
  })

  it('throws once closed', async () => {
    const store = open(file)
    await store.close()
    await expect(store.count()).rejects.toThrow(/closed/)
  })

  describe('importJsonFileStore', () => {
    /** A file of the JSON file store of earlier versions, as it wrote it: two reviews, then a journal of two pages. */
    const FIXTURE = join(
      import.meta.dirname,
      '../../../../../test/fixtures/json-file-store/product-reviews.json',
    )
    const IMPORTED = {
      phase: 'incremental',
      cursor: 'c2',
      limit: 200,
      newReviews: 2,
      updatedReviews: 1,
      // The first checkpoint of the journal names them all, the next only the product it adds.
      affected: ['P1', 'P2', 'P3'],
      watermark: '2025-01-02T00:00:00Z',
      completedAt: '2025-02-01T00:00:00Z',
      lastMode: 'full',
    }
    const legacyStore = async (name = 'product-reviews.json', journal?: string) => {
      const { copyFile, readFile, writeFile } = await import('node:fs/promises')
      const json = join(directories.at(-1) as string, name)
      await copyFile(FIXTURE, json)
      await writeFile(`${json}.journal`, journal ?? (await readFile(`${FIXTURE}.journal`, 'utf8')))
      return json
    }

    it('imports a JSON file store once, its journal and checkpoint too, then removes it', async () => {
      const json = await legacyStore()
      const store = open(file, { importJsonFileStore: json })
      expect(await store.count()).toBe(4)
      expect(await store.keys()).toEqual(['P1', 'P2', 'P3'])
      expect((await store.get('a'))?.review_content).toBe('a, edited')
      expect(await store.getCheckpoint()).toEqual(IMPORTED)
      await expect(access(json)).rejects.toThrow()
      await expect(access(`${json}.journal`)).rejects.toThrow()
    })

    it('imports the journal up to a line a crash cut short', async () => {
      const { readFile } = await import('node:fs/promises')
      const journal = await readFile(`${FIXTURE}.journal`, 'utf8')
      const json = await legacyStore('cut.json', journal.slice(0, journal.lastIndexOf('"reviews"') + 20))
      const store = open(file, { importJsonFileStore: json })
      expect(await store.count()).toBe(3)
      expect((await store.getCheckpoint())?.cursor).toBe('c1')
    })

    it('leaves out a journal that follows another writing of the file', async () => {
      const { readFile } = await import('node:fs/promises')
      const journal = (await readFile(`${FIXTURE}.journal`, 'utf8')).replace(
        /"generation":"[^"]+"/,
        '"generation":"old"',
      )
      const store = open(file, { importJsonFileStore: await legacyStore('other.json', journal) })
      expect(await store.count()).toBe(2)
      expect((await store.getCheckpoint())?.phase).toBe('idle')
    })

    it('never imports into a store that holds anything', async () => {
      await open(file).putMany([], checkpoint('full', 0))
      const json = await legacyStore()
      const store = open(file, { importJsonFileStore: json })
      expect(await store.count()).toBe(0)
      expect(await store.getCheckpoint()).toEqual(checkpoint('full', 0))
      await access(json)
    })

    it('imports nothing, and keeps the file, when the JSON file cannot be read', async () => {
      const json = join(directories.at(-1) as string, 'other.json')
      const { writeFile } = await import('node:fs/promises')
      await writeFile(json, '{"something":"else"}')
      const store = open(file, { importJsonFileStore: json })
      await expect(store.count()).rejects.toThrow(/not a review store file/)
      await access(json)
      expect(await open(file).count()).toBe(0)
    })

    it('takes over a JSON file store at its own path, keeping the path', async () => {
      const json = await legacyStore()
      const store = open(json)
      expect(await store.count()).toBe(4)
      expect(await store.getCheckpoint()).toEqual(IMPORTED)
      await expect(access(`${json}.json-store`)).rejects.toThrow()
      await expect(access(`${json}.journal`)).rejects.toThrow()
      await store.close()
      expect(await open(json).count()).toBe(4)
    })

    it('refuses, leaving it as it is, a file at its path that is neither SQLite nor a JSON file store', async () => {
      const other = join(directories.at(-1) as string, 'notes.txt')
      const { readFile, writeFile } = await import('node:fs/promises')
      await writeFile(other, 'my notes')
      await expect(open(other).count()).rejects.toThrow(/not a database/)
      expect(await readFile(other, 'utf8')).toBe('my notes')
    })

    it('starts empty when there is no JSON file to import', async () => {
      const store = open(file, { importJsonFileStore: join(directories.at(-1) as string, 'none.json') })
      expect(await store.count()).toBe(0)
    })
  })
})
