import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/** Vite's `build.assetsInlineLimit` as a function: inline this file, or not, or `undefined` for the default. */
type ShouldInline = (file: string, content: Buffer) => boolean | undefined

/** Vite's `build.assetsInlineLimit`: a size in bytes, or a function that decides file by file. */
export type AssetsInlineLimit = number | ShouldInline

const STAR = readFileSync(createRequire(import.meta.url).resolve('@verified-reviews/core/star.svg'))

/**
 * The site's `build.assetsInlineLimit`, except that the stars' image of `styles.css` stays a file: Vite
 * inlines small assets as `data:` URIs, which a Content Security Policy without `data:` in `img-src`
 * blocks, and the stars would vanish. Every other file is decided as the site's setting (or Vite's
 * default) decides it.
 */
export function keepStarFile(limit: AssetsInlineLimit | undefined): ShouldInline {
  return (file, content) => {
    if (file.endsWith('star.svg') && content.equals(STAR)) return false
    if (typeof limit === 'function') return limit(file, content)
    return limit === undefined ? undefined : content.length < limit
  }
}
