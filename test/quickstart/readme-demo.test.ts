import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { productNodes, quickStartCommand, warningsOfOurs } from './readme-demo.ts'

describe('the quick start check', () => {
  it('reads the README first command as the one that installs and runs the demo', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8')
    expect(quickStartCommand(readme)).toMatch(/^npx -y pnpm@[\d.]+ install && npx -y pnpm@[\d.]+ demo$/)
  })

  it('takes pnpm warnings about bins linked before dist/ exists for warnings of ours', () => {
    const output = [
      'Progress: resolved 398, reused 398, downloaded 0, added 398, done',
      ' WARN  Failed to create bin at /x/node_modules/.bin/verified-reviews-sandbox. ENOENT',
      'Done in 5.6s using pnpm v10.34.9',
    ].join('\n')
    expect(warningsOfOurs(output)).toEqual([
      ' WARN  Failed to create bin at /x/node_modules/.bin/verified-reviews-sandbox. ENOENT',
    ])
  })

  it('counts Product nodes at the top level and in @graph', () => {
    const script = (data: unknown) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`
    expect(productNodes(script({ '@type': 'Product' }))).toBe(1)
    expect(productNodes(script({ '@graph': [{ '@type': 'Product' }, { '@type': 'Review' }] }))).toBe(1)
    expect(productNodes(script({ '@type': 'Product' }) + script({ '@type': 'ProductGroup' }))).toBe(2)
    expect(productNodes('<p>no markup</p>')).toBe(0)
  })
})
