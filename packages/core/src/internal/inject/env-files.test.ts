import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ENV_FILES, parseEnvFile, readEnvFiles } from './env-files.ts'

describe('parseEnvFile', () => {
  it('reads KEY=value lines, with or without export, and skips comments and blank lines', () => {
    const text = '# credentials\n\nA=1\nexport B=two\n  C = three  \n'
    expect(parseEnvFile(text)).toEqual({ A: '1', B: 'two', C: 'three' })
  })

  it('ends a bare value at #, and keeps # and spaces inside quotes', () => {
    const text = 'A=abc # a comment\nB="x #y "\nC=\'a # b\'\nD=`z`'
    expect(parseEnvFile(text)).toEqual({ A: 'abc', B: 'x #y ', C: 'a # b', D: 'z' })
  })

  it('turns \\n into a line end in double quotes only, and reads a quoted value over several lines', () => {
    const text = 'A="l1\\nl2"\nB=\'l1\\nl2\'\nC="first\nsecond"\r\nD=after'
    expect(parseEnvFile(text)).toEqual({ A: 'l1\nl2', B: 'l1\\nl2', C: 'first\nsecond', D: 'after' })
  })

  it('keeps $VARIABLE as written, and lets a later line win', () => {
    expect(parseEnvFile('A=$HOME/x\nB=1\nB=2')).toEqual({ A: '$HOME/x', B: '2' })
  })

  it('keeps an empty value empty', () => {
    expect(parseEnvFile('A=\nB=""')).toEqual({ A: '', B: '' })
  })
})

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

  it('names a file that exists but cannot be read', async () => {
    await mkdir(join(dir, '.env.local'))
    await expect(readEnvFiles(dir, {})).rejects.toThrow(/^\.env\.local cannot be read: EISDIR/)
  })
})
