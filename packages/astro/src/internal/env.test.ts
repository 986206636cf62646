import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { projectEnvironment } from './env.ts'

let dir: string
// The tests own the VERIFIED_REVIEWS_* variables of the process while they run.
const saved = Object.entries(process.env).filter(([name]) => name.startsWith('VERIFIED_REVIEWS_'))

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vr-env-'))
  for (const [name] of saved) delete process.env[name]
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
  delete process.env.VERIFIED_REVIEWS_ORIGIN
  for (const [name, value] of saved) process.env[name] = value
})

const root = () => pathToFileURL(`${dir}/`)

describe('projectEnvironment', () => {
  it('reads the VERIFIED_REVIEWS_ variables of .env', async () => {
    await writeFile(join(dir, '.env'), 'VERIFIED_REVIEWS_CLIENT_ID=from-env\nOTHER_SECRET=x\n')
    expect(projectEnvironment(root(), 'production').clientId).toBe('from-env')
  })

  it("lets the mode's and the local files win over .env, in Vite's order", async () => {
    await writeFile(join(dir, '.env'), 'VERIFIED_REVIEWS_CLIENT_ID=a\nVERIFIED_REVIEWS_CLIENT_SECRET=a\n')
    await writeFile(join(dir, '.env.local'), 'VERIFIED_REVIEWS_CLIENT_ID=b\n')
    await writeFile(join(dir, '.env.development'), 'VERIFIED_REVIEWS_CLIENT_SECRET=c\n')
    expect(projectEnvironment(root(), 'development')).toMatchObject({ clientId: 'b', clientSecret: 'c' })
    expect(projectEnvironment(root(), 'production')).toMatchObject({ clientSecret: 'a' })
  })

  it('lets the process environment win over every file', async () => {
    await writeFile(join(dir, '.env'), 'VERIFIED_REVIEWS_ORIGIN=http://file.example\n')
    process.env.VERIFIED_REVIEWS_ORIGIN = 'http://process.example'
    expect(projectEnvironment(root(), 'production').origin).toBe('http://process.example')
  })

  it('treats a blank value as unset, by the core rules', async () => {
    await writeFile(join(dir, '.env'), 'VERIFIED_REVIEWS_CLIENT_ID=  \n')
    expect(projectEnvironment(root(), 'production').clientId).toBeUndefined()
  })
})
