import { cacheLife } from 'next/cache.js'
import { FAILED_RENDER_RETRY_SECONDS, FAILED_RENDER_TAG } from './failed-render-tag.ts'
import { tagRender } from './render-tags.ts'

/**
 * Marks the render under way as rendered from an API failure: its cache entry (a `'use cache'` entry,
 * or an ISR page) is tagged {@link FAILED_RENDER_TAG} and revalidates after
 * {@link FAILED_RENDER_RETRY_SECONDS}, however long the app's `cacheLife` or `revalidate` would keep it.
 */
export async function markFailedRender(): Promise<void> {
  try {
    // The shortest explicit cacheLife of a 'use cache' scope wins over the app's cacheLife('hours').
    cacheLife({ revalidate: FAILED_RENDER_RETRY_SECONDS })
  } catch {
    // Not in a 'use cache' scope (an ISR page, a request): the tagged fetch below lowers the page's revalidate.
  }
  await tagRender([FAILED_RENDER_TAG], FAILED_RENDER_RETRY_SECONDS)
}
