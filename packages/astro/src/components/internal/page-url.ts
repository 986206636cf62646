import { pageUrl } from '@verified-reviews/core/internal'
import { shared } from '../../internal/shared.ts'

/**
 * The URL of the page being rendered, the `@id` of its Product node, by the rule the injection follows
 * too (the core's `pageUrl`, with the config's `trailingSlash` and `build.format`): at build time
 * Astro's own URL of a page ends with `.html` (format `file`) or with `/` (`directory`), whatever
 * `trailingSlash` says. Without the integration, the page's URL as Astro gives it.
 */
export function componentPageUrl(url: URL, site: URL | undefined): string | undefined {
  if (site === undefined) return undefined
  const settings = shared().pageUrls
  const path = url.pathname.replace(/(^|\/)index\.html?$/i, '$1').replace(/\.html?$/i, '')
  const index =
    settings?.format === 'directory' || (settings?.format !== 'file' && url.pathname.endsWith('/'))
  return pageUrl(path, site.origin, { index, trailingSlash: settings?.trailingSlash })
}
