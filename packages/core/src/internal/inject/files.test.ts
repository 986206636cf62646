import { describe, expect, it } from 'vitest'
import { pageUrlOf } from './files.ts'

const site = 'https://shop.example/'

describe('pageUrlOf', () => {
  it("serves a folder's index page with a slash and another page without one, by default", () => {
    expect(pageUrlOf('injected-only/index.html', site)).toBe('https://shop.example/injected-only/')
    expect(pageUrlOf('about.html', site)).toBe('https://shop.example/about')
    expect(pageUrlOf('index.html', site)).toBe('https://shop.example/')
  })

  it("drops the final slash of every page but the root's with trailingSlash 'never'", () => {
    expect(pageUrlOf('injected-only/index.html', site, 'never')).toBe('https://shop.example/injected-only')
    expect(pageUrlOf('products/SKU-001/index.html', site, 'never')).toBe(
      'https://shop.example/products/SKU-001',
    )
    expect(pageUrlOf('index.html', site, 'never')).toBe('https://shop.example/')
  })

  it("ends every page with a slash with trailingSlash 'always'", () => {
    expect(pageUrlOf('about.html', site, 'always')).toBe('https://shop.example/about/')
    expect(pageUrlOf('injected-only/index.html', site, 'always')).toBe('https://shop.example/injected-only/')
  })

  it('keeps the base path of the site and encodes each segment', () => {
    expect(pageUrlOf('a b/index.html', 'https://shop.example/fr', 'never')).toBe(
      'https://shop.example/fr/a%20b',
    )
  })
})
