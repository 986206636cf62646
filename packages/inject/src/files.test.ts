import { describe, expect, it } from 'vitest'
import { pageUrlOf } from './files.ts'

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
