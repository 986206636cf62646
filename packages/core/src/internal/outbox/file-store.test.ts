import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { describeOutboxStore, newEntry } from '../../../../../test/fixtures/outbox-store.ts'
import { createFileOutboxStore } from './file-store.ts'

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

describeOutboxStore('createFileOutboxStore', async (clock) => ({
  store: createFileOutboxStore(join(folder, 'outbox.jsonl'), { now: () => clock.now }),
}))

describe('createFileOutboxStore', () => {
  it('keeps what was added for a store opened afterwards on the same file', async () => {
    const path = join(folder, 'outbox.jsonl')
    await createFileOutboxStore(path).add([newEntry('A'), newEntry('B')])
    const claimed = await createFileOutboxStore(path).claim({ owner: 'x', leaseMs: 1000, limit: 10 })
    expect(claimed.map((entry) => entry.event.purchase_reference)).toEqual(['A', 'B'])
  })

  it("sees another store's changes on the same file at its next call", async () => {
    const path = join(folder, 'outbox.jsonl')
    const one = createFileOutboxStore(path)
    const two = createFileOutboxStore(path)
    await one.add([newEntry('A')])
    expect((await two.claim({ owner: 'two', leaseMs: 60_000, limit: 10 })).length).toBe(1)
    expect(await one.claim({ owner: 'one', leaseMs: 60_000, limit: 10 })).toEqual([])
  })

  it('creates the folder and starts the journal with its header line', async () => {
    const path = join(folder, 'deep', 'er', 'outbox.jsonl')
    await createFileOutboxStore(path).add([newEntry('A')])
    const [header] = (await readFile(path, 'utf8')).split('\n')
    expect(JSON.parse(header as string)).toEqual({ t: 'outbox', v: 1 })
  })

  it('answers a missing file as an empty outbox without creating it', async () => {
    const path = join(folder, 'outbox.jsonl')
    expect((await createFileOutboxStore(path).stats()).pending).toBe(0)
    await expect(stat(path)).rejects.toThrow(/ENOENT/)
  })

  it('drops a last line cut short by a crash, with a warning, and writes after it cleanly', async () => {
    const path = join(folder, 'outbox.jsonl')
    await createFileOutboxStore(path).add([newEntry('A')])
    // Longer than the next write, so that only cutting it off (not writing over it) leaves a clean file.
    const cut = JSON.stringify({ t: 'entry', entry: { id: '9', note: 'x'.repeat(5_000) } }).slice(0, 4_000)
    await appendFile(path, cut)
    const { warnings, logger } = quiet()
    const store = createFileOutboxStore(path, { logger })
    await store.add([newEntry('B')])
    expect(warnings.join()).toMatch(/cut short \(4000 bytes\)/)
    const text = await readFile(path, 'utf8')
    expect(text).not.toContain(cut)
    const reopened = createFileOutboxStore(path, { logger })
    const claimed = await reopened.claim({ owner: 'x', leaseMs: 1000, limit: 10 })
    expect(claimed.map((entry) => entry.event.purchase_reference)).toEqual(['A', 'B'])
    expect(warnings.length).toBe(1)
  })

  it('treats a file holding only the start of its first write as empty', async () => {
    const path = join(folder, 'outbox.jsonl')
    await writeFile(path, '{"t":"outb')
    const { warnings, logger } = quiet()
    const store = createFileOutboxStore(path, { logger })
    expect((await store.stats()).pending).toBe(0)
    await store.add([newEntry('A')])
    expect((await createFileOutboxStore(path).stats()).pending).toBe(1)
    expect(warnings.length).toBe(1)
  })

  it('skips an unreadable line in the middle, with a warning, and keeps the rest', async () => {
    const path = join(folder, 'outbox.jsonl')
    const store = createFileOutboxStore(path)
    await store.add([newEntry('A')])
    await appendFile(path, 'not json at all\n')
    await store.add([newEntry('B')])
    const { warnings, logger } = quiet()
    const stats = await createFileOutboxStore(path, { logger }).stats()
    expect(stats.pending).toBe(2)
    expect(warnings).toEqual([expect.stringMatching(/1 unreadable line\(s\)/)])
  })

  it('refuses to write to a file that is not an outbox journal, naming it', async () => {
    const path = join(folder, 'notes.txt')
    await writeFile(path, 'my notes\n')
    await expect(createFileOutboxStore(path).add([newEntry('A')])).rejects.toThrow(
      `${path} is not an outbox journal`,
    )
    expect(await readFile(path, 'utf8')).toBe('my notes\n')
  })

  it('keeps every one of 50 events added at the same time, one line each', async () => {
    const path = join(folder, 'outbox.jsonl')
    const store = createFileOutboxStore(path)
    await store.stats()
    await Promise.all(Array.from({ length: 50 }, (_, index) => store.add([newEntry(`E${index}`)])))
    expect((await readFile(path, 'utf8')).trim().split('\n').length).toBe(51)
    expect((await store.stats()).pending).toBe(50)
  })

  it('rewrites a journal grown far beyond what waits, keeping what waits', async () => {
    const path = join(folder, 'outbox.jsonl')
    const store = createFileOutboxStore(path)
    for (let round = 0; round < 400; round++) {
      const [entry] = await store.add([newEntry(`E${round}`)])
      await store.claim({ owner: 'x', leaseMs: 1000, limit: 1 })
      await store.complete([entry?.id as string])
    }
    const [kept] = await store.add([newEntry('KEEP')])
    const lines = (await readFile(path, 'utf8')).trim().split('\n').length
    expect(lines).toBeLessThan(1_000)
    const reopened = await createFileOutboxStore(path).claim({ owner: 'y', leaseMs: 1000, limit: 10 })
    expect(reopened.map((entry) => [entry.id, entry.event.purchase_reference])).toEqual([[kept?.id, 'KEEP']])
    const [next] = await createFileOutboxStore(path).add([newEntry('NEXT')])
    expect(Number(next?.id)).toBeGreaterThan(Number(kept?.id))
  })

  it('breaks the lock of a process that died while holding it', async () => {
    const path = join(folder, 'outbox.jsonl')
    const child = spawn(process.execPath, ['-e', ''])
    await once(child, 'exit')
    await writeFile(
      `${path}.lock`,
      JSON.stringify({ pid: child.pid, host: (await import('node:os')).hostname(), since: Date.now() }),
    )
    await createFileOutboxStore(path, { lockTimeout: 2_000 }).add([newEntry('A')])
    expect((await createFileOutboxStore(path).stats()).pending).toBe(1)
  })

  it('waits for a live lock holder, then fails naming the lock', async () => {
    const path = join(folder, 'outbox.jsonl')
    await writeFile(
      `${path}.lock`,
      JSON.stringify({ pid: process.pid, host: (await import('node:os')).hostname(), since: Date.now() }),
    )
    await expect(createFileOutboxStore(path, { lockTimeout: 50 }).add([newEntry('A')])).rejects.toThrow(
      `${path}.lock`,
    )
  })
})
