import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { verifiedReviewsEnv } from './env.ts'

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

describe('verifiedReviewsEnv', () => {
  it('reads the VERIFIED_REVIEWS_ variables of .env and nothing else', async () => {
    await writeFile(join(dir, '.env'), 'VERIFIED_REVIEWS_CLIENT_ID=from-env\nOTHER_SECRET=x\n')
    expect(verifiedReviewsEnv(root(), 'production')).toMatchObject({ VERIFIED_REVIEWS_CLIENT_ID: 'from-env' })
    expect(verifiedReviewsEnv(root(), 'production')).not.toHaveProperty('OTHER_SECRET')
  })

  it("lets the mode's and the local files win over .env, in Vite's order", async () => {
    await writeFile(join(dir, '.env'), 'VERIFIED_REVIEWS_CLIENT_ID=a\nVERIFIED_REVIEWS_CLIENT_SECRET=a\n')
    await writeFile(join(dir, '.env.local'), 'VERIFIED_REVIEWS_CLIENT_ID=b\n')
    await writeFile(join(dir, '.env.development'), 'VERIFIED_REVIEWS_CLIENT_SECRET=c\n')
    expect(verifiedReviewsEnv(root(), 'development')).toMatchObject({
      VERIFIED_REVIEWS_CLIENT_ID: 'b',
      VERIFIED_REVIEWS_CLIENT_SECRET: 'c',
    })
    expect(verifiedReviewsEnv(root(), 'production')).toMatchObject({ VERIFIED_REVIEWS_CLIENT_SECRET: 'a' })
  })

  it('lets the process environment win over every file', async () => {
    await writeFile(join(dir, '.env'), 'VERIFIED_REVIEWS_ORIGIN=http://file.example\n')
    process.env.VERIFIED_REVIEWS_ORIGIN = 'http://process.example'
    expect(verifiedReviewsEnv(root(), 'production').VERIFIED_REVIEWS_ORIGIN).toBe('http://process.example')
  })
})
