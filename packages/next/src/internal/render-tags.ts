/**
 * Tags the render under way with `tags`, as a tagged read would: a page (or a `'use cache'` entry)
 * drawn from build data makes no API call, yet `revalidateTag` must reach it. It makes the documented
 * tagged fetch (`next: { tags, revalidate }`) of a `data:` URL, which Next.js collects the tags of
 * (onto the page, or onto the enclosing `'use cache'` entry) and which never leaves the process.
 */
export async function tagRender(tags: readonly string[], revalidate: number): Promise<void> {
  const url = `data:text/plain,${encodeURIComponent(`verified-reviews:${tags.join(' ')}`)}`
  const answer = await fetch(url, { next: { tags: [...tags], revalidate } } as RequestInit)
  await answer.arrayBuffer()
}
