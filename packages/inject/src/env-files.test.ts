import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ENV_FILES, readEnvFiles } from './env-files.ts'

describe('readEnvFiles', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vr-env-files-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('ranks the files as Next.js does: .env.production.local, .env.local, .env.production, then .env', async () => {
    for (const file of ENV_FILES)
      await writeFile(join(dir, file), `WHO=${file}\nONLY${file.replace(/\W/g, '_')}=1\n`)
    const expected = ['.env.production.local', '.env.local', '.env.production', '.env']
    for (const winner of expected) {
      const { env, files } = await readEnvFiles(dir, {})
      expect(env.WHO).toBe(winner)
      expect(files).toEqual(expected.slice(expected.indexOf(winner)))
      await rm(join(dir, winner))
    }
  })

  it('gives every file the variables the files above it lack', async () => {
    await writeFile(join(dir, '.env'), 'A=env\nB=env\n')
    await writeFile(join(dir, '.env.local'), 'A=local\n')
    const { env } = await readEnvFiles(dir, {})
    expect(env).toMatchObject({ A: 'local', B: 'env' })
  })

  it('lets the process environment win over every file, even with an empty value', async () => {
    await writeFile(join(dir, '.env.production.local'), 'A=file\nB=file\nC=file\n')
    const { env } = await readEnvFiles(dir, { A: 'process', B: '' })
    expect(env).toMatchObject({ A: 'process', B: '', C: 'file' })
  })

  it('reads no .env.development, .env.test or .env.example', async () => {
    for (const file of ['.env.development', '.env.test', '.env.example'])
      await writeFile(join(dir, file), 'A=1\n')
    expect(await readEnvFiles(dir, {})).toEqual({ env: {}, files: [] })
  })

  it('reads export, comments and quotes, and expands no $VARIABLE', async () => {
    const text = '# credentials\nexport A=1\nB="x #y "\nC=abc # a comment\nD="l1\\nl2"\nE=$HOME/x\n'
    await writeFile(join(dir, '.env'), text)
    const { env } = await readEnvFiles(dir, {})
    expect(env).toEqual({ A: '1', B: 'x #y ', C: 'abc', D: 'l1\nl2', E: '$HOME/x' })
  })

  it('names a file that exists but cannot be read', async () => {
    await mkdir(join(dir, '.env.local'))
    await expect(readEnvFiles(dir, {})).rejects.toThrow(/^\.env\.local cannot be read: EISDIR/)
  })
})
