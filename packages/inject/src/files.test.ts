import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { listHtmlFiles, pageUrlOf } from './files.ts'

const site = 'https://shop.example/'

describe('pageUrlOf', () => {
  it("serves a folder's index page with a slash and another page under its own name, by default", () => {
    expect(pageUrlOf('injected-only/index.html', site)).toBe('https://shop.example/injected-only/')
    expect(pageUrlOf('products/SKU-005.html', site)).toBe('https://shop.example/products/SKU-005.html')
    expect(pageUrlOf('about.htm', site)).toBe('https://shop.example/about.htm')
    expect(pageUrlOf('index.html', site)).toBe('https://shop.example/')
  })

  it('keeps the .html of a page whatever trailingSlash says, unless the site has clean URLs', () => {
    for (const trailingSlash of ['always', 'never', 'ignore'] as const) {
      expect(pageUrlOf('about.html', site, { trailingSlash })).toBe('https://shop.example/about.html')
    }
  })

  it('drops the .html of a page with cleanUrls', () => {
    expect(pageUrlOf('products/SKU-005.html', site, { cleanUrls: true })).toBe(
      'https://shop.example/products/SKU-005',
    )
    expect(pageUrlOf('injected-only/index.html', site, { cleanUrls: true })).toBe(
      'https://shop.example/injected-only/',
    )
  })

  it("drops the final slash of every page but the root's with trailingSlash 'never'", () => {
    expect(pageUrlOf('injected-only/index.html', site, { trailingSlash: 'never' })).toBe(
      'https://shop.example/injected-only',
    )
    expect(pageUrlOf('products/SKU-001/index.html', site, { trailingSlash: 'never' })).toBe(
      'https://shop.example/products/SKU-001',
    )
    expect(pageUrlOf('index.html', site, { trailingSlash: 'never' })).toBe('https://shop.example/')
  })

  it("ends every clean URL with a slash with trailingSlash 'always'", () => {
    const always = { trailingSlash: 'always', cleanUrls: true } as const
    expect(pageUrlOf('about.html', site, always)).toBe('https://shop.example/about/')
    expect(pageUrlOf('injected-only/index.html', site, always)).toBe('https://shop.example/injected-only/')
  })

  it('keeps the base path of the site and encodes each segment', () => {
    expect(pageUrlOf('a b/index.html', 'https://shop.example/fr', { trailingSlash: 'never' })).toBe(
      'https://shop.example/fr/a%20b',
    )
  })
})

describe('listHtmlFiles', () => {
  it('lists the pages of every folder, sorted, and follows no link', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vr-list-'))
    try {
      const files = [
        'index.html',
        'about.HTM',
        'notes.txt',
        'a b/index.html',
        'products/sku-2/index.html',
        'products/sku-10/index.html',
        'products/sku-10/data.json',
        'deep/er/still/page.html',
      ]
      for (const file of files) {
        await mkdir(join(dir, file, '..'), { recursive: true })
        await writeFile(join(dir, file), '<p>x</p>')
      }
      // Folders holding nothing, or no page; a folder named like a page is still a folder.
      await mkdir(join(dir, 'empty'))
      await mkdir(join(dir, 'folder.html'))
      await writeFile(join(dir, 'folder.html', 'inside.html'), '<p>x</p>')
      await symlink(join(dir, 'products'), join(dir, 'linked-folder'))
      await symlink(join(dir, 'index.html'), join(dir, 'linked.html'))
      expect(await listHtmlFiles(dir)).toEqual([
        'a b/index.html',
        'about.HTM',
        'deep/er/still/page.html',
        'folder.html/inside.html',
        'index.html',
        'products/sku-10/index.html',
        'products/sku-2/index.html',
      ])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('lists what readdir lists, over many folders', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vr-list-'))
    try {
      for (let i = 0; i < 400; i++) {
        const folder = join(dir, 'products', `sku-${i}`, i % 3 === 0 ? 'reviews' : '')
        await mkdir(folder, { recursive: true })
        await writeFile(join(folder, 'index.html'), '<p>x</p>')
      }
      const entries = await readdir(dir, { recursive: true, withFileTypes: true })
      const expected = entries
        .filter((entry) => entry.isFile())
        .map((entry) =>
          [...entry.parentPath.slice(dir.length).split(sep).filter(Boolean), entry.name].join('/'),
        )
        .sort()
      expect(expected).toHaveLength(400)
      expect(await listHtmlFiles(dir)).toEqual(expected)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('fails for a folder that is not there', async () => {
    await expect(listHtmlFiles(join(tmpdir(), 'vr-list-none', 'missing'))).rejects.toThrow(/ENOENT/)
  })
})
