// What the examples' test reads from a built page: stars, reviews, JSON-LD Product nodes, the plain
// "more reviews" link and the Suspense boundaries streamed behind a fallback. Plain text matching on the
// HTML the components write (their class names).

/** The facts of one product page. */
export interface PageFacts {
  path: string
  /** The rating's accessible label (`4.6 out of 5, 128 reviews`) or the stars' `out of 5`. */
  stars: boolean
  /** Review items: the components' `<article class="vr-review">`, or a site's own `<article class="review">`. */
  reviews: number
  /** Reviews in the JSON-LD Product nodes. */
  jsonLdReviews: number
  /** Product and ProductGroup nodes in the page's JSON-LD, top level and in `@graph`. */
  productNodes: number
  /** The href of the plain "next page" link of the review list, when there is one. */
  moreLink: string | undefined
  /**
   * Suspense boundaries whose content came after the HTML around them (React's `<template id="B:…">`):
   * shown by a script, so a reader without JavaScript sees their fallback.
   */
  streamedBoundaries: number
}

const LD_JSON = /<script[^>]*type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g

function productNodesOf(value: unknown): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.flatMap(productNodesOf)
  if (typeof value !== 'object' || value === null) return []
  const node = value as Record<string, unknown>
  const type = node['@type']
  const own = type === 'Product' || type === 'ProductGroup' ? [node] : []
  return [...own, ...productNodesOf(node['@graph'])]
}

function unescapeHtml(text: string): string {
  return text.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'")
}

/** Reads the facts of one page of HTML. */
export function pageFacts(path: string, html: string): PageFacts {
  const nodes = [...html.matchAll(LD_JSON)].flatMap(([, json]) => productNodesOf(JSON.parse(json ?? 'null')))
  const jsonLdReviews = nodes.reduce(
    (total, node) => total + (Array.isArray(node.review) ? node.review.length : 0),
    0,
  )
  const next =
    /<a[^>]*class="[^"]*vr-review-list__next[^"]*"[^>]*href="([^"]+)"|<a[^>]*href="([^"]+)"[^>]*class="[^"]*vr-review-list__next/.exec(
      html,
    )
  const href = next?.[1] ?? next?.[2]
  return {
    path,
    stars: /out of 5/.test(html),
    reviews: html.match(/<article[^>]*class="(?:vr-)?review[ "]/g)?.length ?? 0,
    jsonLdReviews,
    productNodes: nodes.length,
    moreLink: href === undefined ? undefined : unescapeHtml(href),
    streamedBoundaries: html.match(/<template id="B:/g)?.length ?? 0,
  }
}
