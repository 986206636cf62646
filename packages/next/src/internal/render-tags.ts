import { unstable_cache } from 'next/cache.js'

const marker = async () => true

/**
 * Tags the page being rendered, as a tagged fetch would: a page drawn from build data makes no fetch, yet
 * `revalidateTag` must reach it. An `unstable_cache` entry records its tags (and `revalidate`) on the
 * render; its value is a mere `true`, so the cache holds nothing of the data.
 */
export async function tagRender(tags: readonly string[], revalidate: number): Promise<void> {
  await unstable_cache(marker, ['verified-reviews:render-tags', ...tags], { tags: [...tags], revalidate })()
}
