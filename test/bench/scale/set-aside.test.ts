import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { emptyTrash, setAside } from './lib.ts'

describe('setAside and emptyTrash', () => {
  let dir: string | undefined
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true })
  })

  it('moves a folder out of its path at once and deletes it only when the trash is emptied', async () => {
    dir = await mkdtemp(join(tmpdir(), 'vr-set-aside-'))
    const out = join(dir, 'dist')
    await mkdir(join(out, 'products/sku-001'), { recursive: true })
    await writeFile(join(out, 'products/sku-001/index.html'), '<p>old</p>')
    await setAside(out)
    // The path is free for the next build, the old pages kept beside it until the end.
    expect(await readdir(dir)).toEqual([expect.stringMatching(/^dist\.aside-\d+-\d+$/)])
    const [aside] = await readdir(dir)
    expect(await readFile(join(dir, aside as string, 'products/sku-001/index.html'), 'utf8')).toBe(
      '<p>old</p>',
    )
    await mkdir(out)
    await setAside(join(dir, 'missing'))
    await emptyTrash()
    expect(await readdir(dir)).toEqual(['dist'])
    // Emptied once: a second call has nothing left to delete.
    await emptyTrash()
    expect(await readdir(dir)).toEqual(['dist'])
  })
})
