/**
 * A fetch for the outbox proof that keeps the sandbox's 429 answers but turns their `Retry-After: 1`
 * into `Retry-After: 0`: otherwise the client honours each of the ~1,500 429s of 10,000 checkouts by
 * pausing every request for a second, and the proof would last half an hour. How the outbox honours a
 * Retry-After is tested on its own (packages/core/src/internal/outbox/drain.test.ts).
 */
export async function fetchWithoutRetryAfter(input: string, init: RequestInit): Promise<Response> {
  const response = await fetch(input, init)
  if (response.status !== 429) return response
  const headers = new Headers(response.headers)
  headers.set('retry-after', '0')
  return new Response(response.body, { status: 429, statusText: response.statusText, headers })
}
