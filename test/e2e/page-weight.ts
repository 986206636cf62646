// The weight of the demos' pages (issue 29): bytes, gzip bytes and elements of a built page, the share of its
// star ratings and what each review's markup costs beyond its text and dates, against the budgets below.
import { gzipSync } from 'node:zlib'
import { type DefaultTreeAdapterTypes, parse } from 'parse5'

/**
 * The budgets of issue 29 ("Light pages"), on the demos' `SKU-030` product page (ten reviews, a rating
 * summary with criteria, an AI summary) and on a brand or shop page showing as many reviews. They were set
 * from the page as built on 2026-11-28: 60,730 B and 470 elements with Astro, 153,420 B with Next.js (its
 * React Server Components payload, inline in the HTML, copies the markup), of which 59 SVGs made 35,958 B: the
 * 27 star ratings (an SVG nested in another each) and the histogram's five bars. The targets: a star rating in
 * at most 150 B of HTML, a review's markup beyond its text and dates at most 600 B on average, an Astro page
 * within 24,000 B and 300 elements and a Next.js page within 70,000 B, payload included (Next.js adds its own
 * scripts and the payload, so it gets no element budget). Raise one only with the reason beside it.
 */
export const PAGE_BUDGETS = {
  astro: { bytes: 24_000, elements: 300 },
  next: { bytes: 70_000 },
  /**
   * The average over a page's reviews of a review item's markup beyond its text and dates (see
   * {@link PageWeight.reviews}).
   */
  reviewMarkup: 600,
  /** The largest a star rating (`.vr-stars`, its accessible name included) may be in the HTML. */
  starRating: 150,
} as const

type Element = DefaultTreeAdapterTypes.Element
type ChildNode = DefaultTreeAdapterTypes.ChildNode
type TextNode = DefaultTreeAdapterTypes.TextNode

/** The weight of one page. */
export interface PageWeight {
  bytes: number
  gzipBytes: number
  /** Start tags in the source (the elements a parser infers, such as `<tbody>`, not counted). */
  elements: number
  /** The star ratings (`.vr-stars` elements) of the markup: how many, their bytes and the largest one's. */
  stars: { count: number; bytes: number; largest: number }
  /**
   * The bytes of the inline `<script>` elements that are not JSON-LD (Next.js: its React Server Components
   * payload and its loader), and how many.
   */
  scripts: { count: number; bytes: number }
  /**
   * The review items (each `.vr-review`, with its `<li>` in a list) and their markup beyond text and
   * dates: an item's HTML less its text (every text node, as written) and its dates' `datetime` values.
   */
  reviews: {
    count: number
    /** Average bytes of an item's markup beyond its text and dates. */
    averageMarkup: number
    /** The bytes of those texts and dates, in all. */
    textBytes: number
  }
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

function isElement(node: ChildNode): node is Element {
  return 'tagName' in node
}

function classesOf(element: Element): string[] {
  return (element.attrs.find((attr) => attr.name === 'class')?.value ?? '').split(/\s+/)
}

/** Every element under `nodes` (templates' content included), in document order. */
function* elementsUnder(nodes: ChildNode[]): Generator<Element> {
  for (const node of nodes) {
    if (!isElement(node)) continue
    yield node
    yield* elementsUnder(node.childNodes)
    if (node.tagName === 'template')
      yield* elementsUnder((node as DefaultTreeAdapterTypes.Template).content.childNodes)
  }
}

function textNodesUnder(element: Element): TextNode[] {
  return element.childNodes.flatMap((node) =>
    node.nodeName === '#text' ? [node as TextNode] : isElement(node) ? textNodesUnder(node) : [],
  )
}

/** The source of a node as the page has it (character references unexpanded). */
function sourceOf(html: string, node: ChildNode): string {
  const location = node.sourceCodeLocation
  if (location === null || location === undefined) return ''
  return html.slice(location.startOffset, location.endOffset)
}

/** The bytes of the text under an element, as written in the page. */
function textBytes(html: string, element: Element): number {
  return textNodesUnder(element).reduce((sum, node) => sum + byteLength(sourceOf(html, node)), 0)
}

/** The weight of a page's HTML. */
export function measurePage(html: string): PageWeight {
  const document = parse(html, { sourceCodeLocationInfo: true })
  const all = [...elementsUnder(document.childNodes)]
  const written = all.filter((element) => element.sourceCodeLocation?.startTag !== undefined)
  const stars = written
    .filter((element) => classesOf(element).includes('vr-stars'))
    .map((element) => byteLength(sourceOf(html, element)))
  const scripts = written.filter(
    (element) =>
      element.tagName === 'script' &&
      !element.attrs.some((attr) => attr.name === 'type' && attr.value === 'application/ld+json'),
  )
  // A review item: each review (`.vr-review`) with the list item around it, when it has one.
  const items = written
    .filter((element) => classesOf(element).includes('vr-review'))
    .map((review) => {
      const parent = review.parentNode as Element | null
      return parent !== null && 'tagName' in parent && parent.tagName === 'li' ? parent : review
    })
  let markup = 0
  let texts = 0
  for (const item of items) {
    // What the reader reads (every text, as written in the page) and the dates' machine-readable values.
    const dates = [...elementsUnder(item.childNodes)]
      .flatMap((element) => element.attrs.filter((attr) => attr.name === 'datetime'))
      .reduce((sum, attr) => sum + byteLength(attr.value), 0)
    const text = textBytes(html, item) + dates
    texts += text
    markup += byteLength(sourceOf(html, item)) - text
  }
  const average = (sum: number) => (items.length === 0 ? 0 : Math.round(sum / items.length))
  return {
    bytes: byteLength(html),
    gzipBytes: gzipSync(html).length,
    elements: written.length,
    stars: {
      count: stars.length,
      bytes: stars.reduce((sum, bytes) => sum + bytes, 0),
      largest: Math.max(0, ...stars),
    },
    scripts: {
      count: scripts.length,
      bytes: scripts.reduce((sum, element) => sum + byteLength(sourceOf(html, element)), 0),
    },
    reviews: {
      count: items.length,
      averageMarkup: average(markup),
      textBytes: texts,
    },
  }
}

/** The React Server Components payload that Next.js writes into a page, in `self.__next_f.push` scripts. */
export interface NextPayload {
  /** The payload scripts and their bytes in the page. */
  scripts: number
  bytes: number
  /** The star ratings serialised in it: how many and their bytes as the page holds them (escaped). */
  stars: { count: number; bytes: number }
}

/** The end of the JSON array that starts at `start`, strings skipped. */
function endOfArray(text: string, start: number): number {
  let depth = 0
  for (let i = start; i < text.length; i++) {
    const char = text[i]
    if (char === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++
    } else if (char === '[') depth++
    else if (char === ']' && --depth === 0) return i + 1
  }
  return text.length
}

/** The payload of a page built by Next.js, and the star ratings in it. */
export function nextPayload(html: string): NextPayload {
  const pushes = [...html.matchAll(/<script>(self\.__next_f\.push\(\[1,("(?:[^"\\]|\\.)*")\]\))<\/script>/g)]
  const flight = pushes.map((match) => JSON.parse(match[2] ?? '""') as string).join('')
  const stars = [...flight.matchAll(/\["\$","span",(?:null|"[^"]*"),\{"className":"vr-stars[ "]/g)].map(
    (match) => {
      const element = flight.slice(match.index, endOfArray(flight, match.index))
      // As the page holds it: inside a JavaScript string, so escaped once more.
      return byteLength(JSON.stringify(element)) - 2
    },
  )
  return {
    scripts: pushes.length,
    bytes: pushes.reduce((sum, match) => sum + byteLength(match[0]), 0),
    stars: {
      count: stars.length,
      bytes: stars.reduce((sum, bytes) => sum + bytes, 0),
    },
  }
}

const number = new Intl.NumberFormat('en-US')

const percent = (part: number, whole: number) =>
  `${whole === 0 ? '0.0' : ((100 * part) / whole).toFixed(1)} %`

/**
 * The report of a page: bytes, gzip bytes, elements, the star ratings' share (in the markup and, for
 * Next.js, in the payload) and the reviews' markup beyond text and dates.
 */
export function formatWeight(name: string, weight: PageWeight, payload?: NextPayload): string {
  const starBytes = weight.stars.bytes + (payload?.stars.bytes ?? 0)
  const lines = [
    `${name}: ${number.format(weight.bytes)} B HTML, gzip ${number.format(weight.gzipBytes)} B, ` +
      `${number.format(weight.elements)} elements`,
    `  star ratings: ${weight.stars.count} in the markup, ${number.format(weight.stars.bytes)} B ` +
      `(the largest ${weight.stars.largest} B)` +
      (payload === undefined
        ? ''
        : `, ${payload.stars.count} in the payload, ${number.format(payload.stars.bytes)} B`) +
      `: ${percent(starBytes, weight.bytes)} of the page`,
  ]
  if (payload !== undefined) {
    lines.push(
      `  React Server Components payload: ${payload.scripts} inline scripts, ${number.format(payload.bytes)} B ` +
        `(${percent(payload.bytes, weight.bytes)} of the page)`,
    )
  }
  lines.push(
    `  ${weight.reviews.count} reviews: markup beyond text and dates ${number.format(weight.reviews.averageMarkup)} B ` +
      `a review on average (budget ${PAGE_BUDGETS.reviewMarkup} B), text and dates ` +
      `${number.format(weight.reviews.textBytes)} B in all`,
  )
  return lines.join('\n')
}

/**
 * What a page exceeds of its budgets (bytes and elements, a review's markup on average, the largest star
 * rating), one sentence each; none when it is within them.
 */
export function overBudget(framework: 'astro' | 'next', weight: PageWeight): string[] {
  const over: string[] = []
  const budget = PAGE_BUDGETS[framework]
  if (weight.bytes > budget.bytes)
    over.push(`${number.format(weight.bytes)} B > ${number.format(budget.bytes)} B`)
  if ('elements' in budget && weight.elements > budget.elements)
    over.push(`${weight.elements} elements > ${budget.elements}`)
  if (weight.reviews.averageMarkup > PAGE_BUDGETS.reviewMarkup)
    over.push(
      `a review's markup ${weight.reviews.averageMarkup} B on average > ${PAGE_BUDGETS.reviewMarkup} B`,
    )
  if (weight.stars.largest > PAGE_BUDGETS.starRating)
    over.push(`a star rating of ${weight.stars.largest} B > ${PAGE_BUDGETS.starRating} B`)
  return over
}
