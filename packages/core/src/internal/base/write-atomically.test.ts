import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { writeAtomically } from './write-atomically.ts'

const steps: string[] = []

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>()
  return {
    ...fs,
    open: async (...args: Parameters<typeof fs.open>) => {
      const handle = await fs.open(...args)
      const sync = handle.sync.bind(handle)
      handle.sync = async () => {
        steps.push(`sync ${String(args[0]).endsWith('.tmp') ? 'file' : 'folder'}`)
        return sync()
      }
      return handle
    },
    rename: async (...args: Parameters<typeof fs.rename>) => {
      steps.push('rename')
      return fs.rename(...args)
    },
  }
})

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vr-write-atomically-'))
  steps.length = 0
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('writeAtomically', () => {
  it('flushes the temporary file to disk before renaming it, then the folder', async () => {
    await writeAtomically(join(dir, 'a.json'), '{}')
    expect(steps).toEqual(['sync file', 'rename', 'sync folder'])
  })

  it('replaces the whole file and leaves no temporary file behind', async () => {
    const path = join(dir, 'a.html')
    await writeFile(path, 'a much longer old content')
    await writeAtomically(path, Uint8Array.of(0xef, 0xbb, 0xbf, 0x3c))
    expect(await readFile(path)).toEqual(Buffer.from([0xef, 0xbb, 0xbf, 0x3c]))
    expect(await readdir(dir)).toEqual(['a.html'])
  })

  it('gives the file the permissions asked for', async () => {
    const path = join(dir, 'page.html')
    await writeFile(path, 'x')
    await chmod(path, 0o640)
    await writeAtomically(path, 'y', { mode: 0o640 })
    expect((await stat(path)).mode & 0o777).toBe(0o640)
  })

  it('creates the missing folders', async () => {
    await writeAtomically(join(dir, 'a', 'b', 'c.json'), '[]')
    expect(await readFile(join(dir, 'a', 'b', 'c.json'), 'utf8')).toBe('[]')
  })
})
