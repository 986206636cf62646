/**
 * How the URL of a {@link tagRender} fetch starts: the incremental cache handlers this package wraps store
 * no answer of one (it carries nothing, and a per-request render would otherwise leave an entry per
 * product in a shared cache).
 */
export const TAG_FETCH_URL = 'data:text/plain,verified-reviews%3A'

/**
 * Whether an incremental cache value is the answer of a {@link tagRender} fetch (`kind: 'FETCH'`, its URL
 * in `data.url`).
 */
export function isTagFetch(value: { kind: string; [field: string]: unknown } | null): boolean {
  if (value?.kind !== 'FETCH') return false
  return isTagFetchUrl((value.data as { url?: unknown } | undefined)?.url)
}

/**
 * Whether the context of an incremental cache `get` is the lookup of a {@link tagRender} fetch
 * (`kind: 'FETCH'`, its URL in `fetchUrl`, as Next.js passes both for every fetch it looks up).
 */
export function isTagFetchLookup(context: unknown): boolean {
  const { kind, fetchUrl } = (context ?? {}) as { kind?: unknown; fetchUrl?: unknown }
  return kind === 'FETCH' && isTagFetchUrl(fetchUrl)
}

/**
 * The entry a cache handler answers the lookup of a {@link tagRender} fetch with (`context` as in
 * {@link isTagFetchLookup}): an empty answer (what the fetch carries matters to no one), as if stored
 * now. Next.js then uses it as it uses a stored fetch: it neither makes the `data:` fetch nor copies and
 * stores its answer, the most of what tagging cost each page of a build (the tags are collected before
 * the lookup, whatever it finds). Shaped as Next.js's own `FileSystemCache` returns a stored fetch.
 */
export function tagFetchEntry(context: unknown): {
  lastModified: number
  value: {
    kind: 'FETCH'
    data: { headers: Record<string, string>; body: string; status: number; url: string }
  }
} {
  const { fetchUrl } = context as { fetchUrl: string }
  return {
    lastModified: Date.now(),
    value: { kind: 'FETCH', data: { headers: {}, body: '', status: 200, url: fetchUrl } },
  }
}

/** Whether `url` is the URL of a {@link tagRender} fetch. */
function isTagFetchUrl(url: unknown): boolean {
  return typeof url === 'string' && url.startsWith(TAG_FETCH_URL)
}

/**
 * Tags the render under way with `tags`, as a tagged read would: a page (or a `'use cache'` entry)
 * drawn from build data makes no API call, yet `revalidateTag` must reach it. It makes the documented
 * tagged fetch (`next: { tags, revalidate }`) of a `data:` URL, which Next.js collects the tags of
 * (onto the page, or onto the enclosing `'use cache'` entry) and which never leaves the process.
 */
export async function tagRender(tags: readonly string[], revalidate: number): Promise<void> {
  const url = `${TAG_FETCH_URL}${encodeURIComponent(tags.join(' '))}`
  const answer = await fetch(url, { next: { tags: [...tags], revalidate } } as RequestInit)
  await answer.arrayBuffer()
}
