import type { TrailingSlash } from '@verified-reviews/inject'
import { pageUrlOf } from '@verified-reviews/inject'
import { afterEach, describe, expect, it } from 'vitest'
import { type PageUrlSettings, shared } from '../../internal/shared.ts'
import { componentPageUrl } from './page-url.ts'

const site = new URL('https://shop.example')

afterEach(() => {
  shared().pageUrls = undefined
})

/** The URL Astro 7 gives a prerendered page (`Astro.url`), as its build's `getUrlForPath` makes it. */
function astroBuildUrl(route: string, index: boolean, { format, trailingSlash }: PageUrlSettings): URL {
  const effective = format === 'preserve' ? (index ? 'directory' : 'file') : format
  const ending = effective === 'file' ? '.html' : trailingSlash === 'never' ? '' : '/'
  return new URL(`/${route}${ending}`, site)
}

/** The file Astro 7 writes for the page. */
function astroFile(route: string, index: boolean, format: PageUrlSettings['format']): string {
  return format === 'directory' || (format === 'preserve' && index) ? `${route}/index.html` : `${route}.html`
}

describe('componentPageUrl', () => {
  it("follows trailingSlash 'never' for a page Astro writes as a folder", () => {
    shared().pageUrls = { trailingSlash: 'never', format: 'directory' }
    expect(componentPageUrl(new URL('https://shop.example/products/SKU-001'), site)).toBe(
      'https://shop.example/products/SKU-001',
    )
  })

  it('leaves out the .html of the URL Astro gives a page of format file', () => {
    shared().pageUrls = { trailingSlash: 'ignore', format: 'file' }
    expect(componentPageUrl(new URL('https://shop.example/products/SKU-001.html'), site)).toBe(
      'https://shop.example/products/SKU-001',
    )
  })

  it('gives every page the URL the injection gives its file, whatever trailingSlash and build.format say', () => {
    const slashes: TrailingSlash[] = ['always', 'never', 'ignore']
    const formats: PageUrlSettings['format'][] = ['directory', 'file', 'preserve']
    for (const trailingSlash of slashes) {
      for (const format of formats) {
        for (const index of [true, false]) {
          const settings = { trailingSlash, format }
          shared().pageUrls = settings
          const route = 'products/SKU-001'
          expect(
            componentPageUrl(astroBuildUrl(route, index, settings), site),
            `${trailingSlash}, ${format}, ${index ? 'index' : 'page'}`,
          ).toBe(
            pageUrlOf(astroFile(route, index, format), `${site.origin}/`, { trailingSlash, cleanUrls: true }),
          )
        }
      }
    }
  })

  it("keeps Astro's URL of the page without the integration", () => {
    expect(componentPageUrl(new URL('https://shop.example/products/SKU-001/'), site)).toBe(
      'https://shop.example/products/SKU-001/',
    )
    expect(componentPageUrl(new URL('https://shop.example/products/SKU-001'), undefined)).toBeUndefined()
  })
})
