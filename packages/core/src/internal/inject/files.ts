import { readdir } from 'node:fs/promises'
import { sep } from 'node:path'
import { pageUrl, type TrailingSlash } from '../view/url.ts'

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

/**
 * The URL a static host serves a file at, under `site`: `index.html` is its folder (`shop/index.html` →
 * `shop/`), other pages drop `.html` (`about.html` → `about`), as Astro, Next.js static export and most
 * hosts do; `trailingSlash` `'always'` or `'never'` (Astro's setting) decides the final `/` instead.
 */
export function pageUrlOf(file: string, site: string, trailingSlash: TrailingSlash = 'ignore'): string {
  const index = /(^|\/)index\.html?$/i.test(file)
  const path = file.replace(/(^|\/)index\.html?$/i, '$1').replace(/\.html?$/i, '')
  return pageUrl(path.split('/').map(encodeURIComponent).join('/'), site, { index, trailingSlash })
}
