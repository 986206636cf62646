// A site deployed again: the second `next build` starts from the build data the first one kept in
// `<distDir>/cache` (which `next build` keeps, as hosts that cache builds do), so that it syncs only what
// was published since, rather than the whole account again.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BuiltNextApp, buildNextApp, NEXT } from './next-demo-app.ts'
import { run } from './support.ts'

const FIXTURE = join(import.meta.dirname, 'next-isr')
const DIST_DIR = '.next-e2e-rebuild'
const NEW_REVIEW = 'Published between the two deploys.'

let app: BuiltNextApp
let second: { calls: Record<string, number>; output: string }

/** The product page the build wrote for `id`. */
const builtPage = (id: string) =>
  readFile(join(FIXTURE, DIST_DIR, 'server/app/products', `${id}.html`), 'utf8')

beforeAll(async () => {
  app = await buildNextApp(FIXTURE, DIST_DIR)
  const response = await fetch(`${app.sandbox.origin}/__sandbox/product-reviews`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([{ product_variation_id: 'SKU-002', review_rate: 5, review_content: NEW_REVIEW }]),
  })
  expect(response.ok).toBe(true)
  await fetch(`${app.sandbox.origin}/__sandbox/stats`, { method: 'DELETE' })
  const output = await run(process.execPath, [NEXT, 'build'], { cwd: FIXTURE, env: app.env })
  const stats = (await (await fetch(`${app.sandbox.origin}/__sandbox/stats`)).json()) as {
    operations: Record<string, number>
  }
  second = { calls: stats.operations, output }
}, 600_000)

afterAll(async () => {
  await app?.close()
}, 60_000)

describe('a second next build', () => {
  it('syncs the reviews published since the first build: one call, against a full sync before', () => {
    const { 'token.published': _tokens, ...first } = app.buildCalls
    expect(first).toEqual({ 'products.list': 1, 'products.reviews.list': 15 })
    const { 'token.published': _again, ...calls } = second.calls
    expect(calls).toEqual({ 'products.list': 1, 'products.reviews.list': 1 })
    expect(second.output).toMatch(/incremental/)
  })

  it('shows the review published since, and the reviews it kept', async () => {
    const html = await builtPage('SKU-002')
    expect(html).toContain(NEW_REVIEW)
    expect((html.match(/class="vr-review"/g) ?? []).length).toBeGreaterThan(1)
  })

  it('keeps one file of build data in the cache folder, and leaves no copy in the build folder', async () => {
    const kept = await readdir(join(FIXTURE, DIST_DIR, 'cache/verified-reviews'))
    expect(kept.filter((name) => name.startsWith('build-'))).toEqual([
      expect.stringMatching(/^build-[0-9a-f]{12}\.sqlite$/),
    ])
    const folder = await readdir(join(FIXTURE, DIST_DIR, 'verified-reviews'))
    expect(folder.filter((name) => name.includes('.kept-'))).toEqual([])
  })
})
