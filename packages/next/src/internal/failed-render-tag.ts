/**
 * The tag of output rendered from an API failure. The cache handlers of this package never let an entry
 * with it replace a good entry of the same key.
 */
export const FAILED_RENDER_TAG = 'verified-reviews:failed-render'

/** Seconds a render from an API failure is kept before a request renders it again. */
export const FAILED_RENDER_RETRY_SECONDS = 30

/** Whether the tags of a cache entry say that it was rendered from an API failure. */
export function isFailedRender(tags: readonly string[] | undefined): boolean {
  return tags?.includes(FAILED_RENDER_TAG) === true
}
