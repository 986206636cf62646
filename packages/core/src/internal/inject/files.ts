import { readdir } from 'node:fs/promises'
import { sep } from 'node:path'
import { pageUrl, type TrailingSlash } from '../display/url.ts'

/** Relative paths (with `/` separators) of every `.html` and `.htm` file under `dir`, sorted. */
export async function listHtmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && /\.html?$/i.test(entry.name))
    .map((entry) => {
      const parent = entry.parentPath.slice(dir.length).split(sep).filter(Boolean)
      return [...parent, entry.name].join('/')
    })
    .sort()
}

/** How {@link pageUrlOf} turns a file into its URL. */
export interface PageUrlOptions {
  /**
   * Whether the site is served with clean URLs: `about.html` at `/about`, as Astro, Netlify's pretty
   * URLs, Vercel's `cleanUrls` or Cloudflare Pages serve it. Without them, a page keeps its `.html`
   * (`about.html` at `/about.html`), which every static host serves.
   * @default false
   */
  cleanUrls?: boolean
  /**
   * Whether the URLs end with `/` (Astro's `trailingSlash`): `'always'`, `'never'`, or `'ignore'`, a
   * folder's index page with `/` and other pages without. A page that keeps its `.html` never ends with `/`.
   * @default 'ignore'
   */
  trailingSlash?: TrailingSlash | undefined
}

/**
 * The URL a static host serves a file at, under `site`: `index.html` is its folder (`shop/index.html` →
 * `shop/`), another page keeps its name (`about.html` → `about.html`), or drops its `.html` with
 * `cleanUrls` (`about.html` → `about`, as Astro and hosts with clean URLs serve it); `trailingSlash`
 * `'always'` or `'never'` (Astro's setting) decides the final `/` of a folder, and of a clean URL.
 *
 * @example
 * pageUrlOf('products/SKU-005.html', 'https://shop.example/') // 'https://shop.example/products/SKU-005.html'
 * pageUrlOf('products/SKU-005.html', 'https://shop.example/', { cleanUrls: true }) // '…/products/SKU-005'
 */
export function pageUrlOf(file: string, site: string, options: PageUrlOptions = {}): string {
  const { cleanUrls = false, trailingSlash = 'ignore' } = options
  const index = /(^|\/)index\.html?$/i.test(file)
  const folder = file.replace(/(^|\/)index\.html?$/i, '$1')
  const encoded = (path: string) => path.split('/').map(encodeURIComponent).join('/')
  if (!index && !cleanUrls) return pageUrl(encoded(file), site, { index: false, trailingSlash: 'never' })
  const path = index ? folder : file.replace(/\.html?$/i, '')
  return pageUrl(encoded(path), site, { index, trailingSlash })
}
