import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { access, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { describeOutboxStore, newEntry } from '../../../../../test/fixtures/outbox-store.ts'
import { createSqliteReviewStore } from '../sync/sqlite-store.ts'
import { OutboxState } from './memory-store.ts'
import { createSqliteOutboxStore } from './sqlite-store.ts'

let folder: string
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'vr-outbox-'))
})
afterEach(async () => {
  await rm(folder, { recursive: true, force: true })
})

const quiet = () => {
  const warnings: string[] = []
  return { warnings, logger: { warn: (message: string) => warnings.push(message) } }
}
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  )
const references = (entries: readonly { event: { purchase_reference: string } }[]) =>
  entries.map((entry) => entry.event.purchase_reference)
/** Rows of the outbox's change table, read by SQLite itself. */
function changeRows(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM outbox_changes').get() as { n: number }).n)
  } finally {
    db.close()
  }
}

describeOutboxStore('createSqliteOutboxStore', async (clock) => ({
  store: createSqliteOutboxStore(join(folder, 'outbox.sqlite'), { now: () => clock.now }),
}))

describe('createSqliteOutboxStore', () => {
  /** The permission bits of a path. */
  const modeOf = async (path: string) => (await stat(path)).mode & 0o777

  it('creates its file, WAL and SHM readable by their owner only, and its folders 0700, whatever the umask', async () => {
    // The usual umask, which left the customers' names and e-mails readable by every user.
    const umask = process.umask(0o022)
    try {
      const file = join(folder, 'data', 'private', 'outbox.sqlite')
      const store = createSqliteOutboxStore(file)
      await store.add([newEntry('A')])
      expect(await exists(`${file}-wal`)).toBe(true)
      expect(await exists(`${file}-shm`)).toBe(true)
      for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(await modeOf(path)).toBe(0o600)
      expect(await modeOf(join(folder, 'data'))).toBe(0o700)
      expect(await modeOf(join(folder, 'data', 'private'))).toBe(0o700)
    } finally {
      process.umask(umask)
    }
  })

  it('leaves the modes of a folder it did not create as they are', async () => {
    const umask = process.umask(0o022)
    try {
      const shared = join(folder, 'shared')
      await mkdir(shared, { mode: 0o755 })
      await createSqliteOutboxStore(join(shared, 'outbox.sqlite')).add([newEntry('A')])
      expect(await modeOf(shared)).toBe(0o755)
      expect(await modeOf(join(shared, 'outbox.sqlite'))).toBe(0o600)
    } finally {
      process.umask(umask)
    }
  })

  it('keeps what was added for a store opened afterwards on the same file', async () => {
    const file = join(folder, 'deep', 'er', 'outbox.sqlite')
    await createSqliteOutboxStore(file).add([newEntry('A'), newEntry('B')])
    const claimed = await createSqliteOutboxStore(file).claim({ owner: 'x', leaseMs: 1000, limit: 10 })
    expect(references(claimed)).toEqual(['A', 'B'])
  })

  it("sees another store's changes on the same file at its next call", async () => {
    const file = join(folder, 'outbox.sqlite')
    const one = createSqliteOutboxStore(file)
    const two = createSqliteOutboxStore(file)
    await one.add([newEntry('A')])
    expect((await two.claim({ owner: 'two', leaseMs: 60_000, limit: 10 })).length).toBe(1)
    expect(await one.claim({ owner: 'one', leaseMs: 60_000, limit: 10 })).toEqual([])
  })

  it('shares its file with the review store', async () => {
    const file = join(folder, 'verified-reviews.sqlite')
    const reviews = createSqliteReviewStore(file)
    await reviews.setCheckpoint({ version: 1, cursor: 'c', syncedAt: '2026-01-01T00:00:00Z' } as never)
    await createSqliteOutboxStore(file).add([newEntry('A')])
    expect(await reviews.getCheckpoint()).toMatchObject({ cursor: 'c' })
    expect((await createSqliteOutboxStore(file).stats()).pending).toBe(1)
    await reviews.close()
  })

  it('keeps every one of 50 events added at the same time', async () => {
    const file = join(folder, 'outbox.sqlite')
    const store = createSqliteOutboxStore(file)
    await Promise.all(Array.from({ length: 50 }, (_, index) => store.add([newEntry(`E${index}`)])))
    expect((await createSqliteOutboxStore(file).stats()).pending).toBe(50)
    expect(changeRows(file)).toBe(50)
  })

  it('rewrites changes grown far beyond what waits, keeping what waits, and other stores follow', async () => {
    const file = join(folder, 'outbox.sqlite')
    const store = createSqliteOutboxStore(file)
    const other = createSqliteOutboxStore(file)
    await other.stats()
    for (let round = 0; round < 400; round++) {
      const [entry] = await store.add([newEntry(`E${round}`)])
      await store.claim({ owner: 'x', leaseMs: 1000, limit: 1 })
      await store.complete([entry?.id as string])
    }
    const [kept] = await store.add([newEntry('KEEP')])
    expect(changeRows(file)).toBeLessThan(1_000)
    // A store that read the file before the rewrite reads it again whole, not on top of what it had.
    const claimed = await other.claim({ owner: 'y', leaseMs: 1000, limit: 10 })
    expect(claimed.map((entry) => [entry.id, entry.event.purchase_reference])).toEqual([[kept?.id, 'KEEP']])
    const [next] = await createSqliteOutboxStore(file).add([newEntry('NEXT')])
    expect(Number(next?.id)).toBeGreaterThan(Number(kept?.id))
  })

  it('lets one of two processes claim an entry, never both', async () => {
    const file = join(folder, 'outbox.sqlite')
    await createSqliteOutboxStore(file).add(Array.from({ length: 40 }, (_, index) => newEntry(`E${index}`)))
    const source = new URL('./sqlite-store.ts', import.meta.url).pathname
    const script = `
      const { createSqliteOutboxStore } = await import(${JSON.stringify(source)})
      const store = createSqliteOutboxStore(${JSON.stringify(file)})
      const got = []
      for (let i = 0; i < 20; i++) got.push(...(await store.claim({ owner: String(process.pid), leaseMs: 60000, limit: 1 })))
      process.stdout.write(JSON.stringify(got.map((entry) => entry.id)))`
    const children = [0, 1].map(() => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script])
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
      })
      return once(child, 'exit').then(([code]) => {
        expect(code).toBe(0)
        return JSON.parse(output) as string[]
      })
    })
    const [one, two] = await Promise.all(children)
    expect(new Set([...(one ?? []), ...(two ?? [])]).size).toBe(40)
    expect((one ?? []).length + (two ?? []).length).toBe(40)
  })

  describe('importJournal', () => {
    /** A journal as the former file store wrote it: the header, then one change a line. */
    async function journal(path: string, extra = ''): Promise<void> {
      const state = new OutboxState()
      state.changes = []
      state.add([newEntry('A'), newEntry('B'), newEntry('C')], 1_000)
      state.deadLetter([{ id: '2', reasons: [{ field: 'price', message: 'bad' }] as never }], 2_000)
      const lines = [{ t: 'outbox', v: 1 }, ...state.changes]
      await writeFile(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n${extra}`)
    }

    it('copies what waits and the dead letters once, then removes the journal', async () => {
      const path = join(folder, 'purchase-events.jsonl')
      await journal(path)
      const file = join(folder, 'outbox.sqlite')
      const store = createSqliteOutboxStore(file, { importJournal: path })
      expect(references(await store.claim({ owner: 'x', leaseMs: 1000, limit: 10 }))).toEqual(['A', 'C'])
      expect(references(await store.deadLetters())).toEqual(['B'])
      expect(await exists(path)).toBe(false)
      const [next] = await store.add([newEntry('D')])
      expect(next?.id).toBe('4')
    })

    it('never imports into an outbox already written', async () => {
      const path = join(folder, 'purchase-events.jsonl')
      const file = join(folder, 'outbox.sqlite')
      await createSqliteOutboxStore(file).add([newEntry('Z')])
      await journal(path)
      const store = createSqliteOutboxStore(file, { importJournal: path })
      expect((await store.stats()).pending).toBe(1)
      expect(await exists(path)).toBe(true)
    })

    it('drops a last line cut short and skips an unreadable one, with a warning', async () => {
      const path = join(folder, 'purchase-events.jsonl')
      await journal(path, 'not json\n{"t":"entry","entry":{"id":"9"')
      const { warnings, logger } = quiet()
      const store = createSqliteOutboxStore(join(folder, 'outbox.sqlite'), { importJournal: path, logger })
      expect((await store.stats()).pending).toBe(2)
      expect(warnings).toEqual([expect.stringMatching(/1 unreadable line\(s\)/)])
    })

    it('refuses a file that is not an outbox journal, naming it, and leaves it', async () => {
      const path = join(folder, 'notes.txt')
      await writeFile(path, 'my notes\n')
      const store = createSqliteOutboxStore(join(folder, 'outbox.sqlite'), { importJournal: path })
      await expect(store.stats()).rejects.toThrow(`${path} is not an outbox journal`)
      expect(await readFile(path, 'utf8')).toBe('my notes\n')
    })
  })
})
