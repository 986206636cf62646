import { readdir } from 'node:fs/promises'
import { sep } from 'node:path'

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
 * hosts do.
 */
export function pageUrlOf(file: string, site: string): string {
  const base = site.endsWith('/') ? site : `${site}/`
  const path = file.replace(/(^|\/)index\.html?$/i, '$1').replace(/\.html?$/i, '')
  return new URL(path.split('/').map(encodeURIComponent).join('/'), base).href
}
