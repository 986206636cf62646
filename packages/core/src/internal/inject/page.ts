import { isProductNode, type JsonLdNode, mergeJsonLd } from '../jsonld/merge.ts'
import { jsonLdScriptTag, serializeJsonLd } from '../jsonld/serialize.ts'
import { decodeEntities, type HtmlScan, type RawTextElement, scanHtml } from './html.ts'

/** The `name` of the meta element that marks a page's product: `<meta name="verified-reviews:product" content="SKU">`. */
export const PRODUCT_META_NAME = 'verified-reviews:product'

/** The attribute that marks an element's product: `<div data-verified-reviews-product="SKU">`. */
export const PRODUCT_ATTRIBUTE = 'data-verified-reviews-product'

/** `id` of the script element the injector adds. */
export const INJECTED_SCRIPT_ID = 'verified-reviews-jsonld'

/** Attribute the injector adds to a page's script it merged its markup into, so a later run may update it. */
export const MERGED_SCRIPT_ATTRIBUTE = 'data-verified-reviews-jsonld'

/** Whether the injector wrote this script (added it, or merged into it), and so may bring it up to date. */
function isOwnScript(element: RawTextElement): boolean {
  return (
    element.tag.attributes.get('id') === INJECTED_SCRIPT_ID ||
    element.tag.attributes.has(MERGED_SCRIPT_ATTRIBUTE)
  )
}

/** What a page says about its product, read by {@link readProductPage}. */
export interface ProductPage {
  /**
   * Every distinct product the page marks: those of `<meta name="verified-reviews:product">` when the
   * page has one, else those of `data-verified-reviews-product` attributes. One page describes one
   * product, so a page that marks several gets no markup.
   */
  productIds: string[]
  /** `href` of `<link rel="canonical">`, resolved against the page's URL; undefined without one. */
  canonicalUrl: string | undefined
  /** Text of `<meta property="og:title">`, else of `<title>`: a fallback for the product's name. */
  title: string | undefined
  /** The Product nodes already in the page's JSON-LD: their `@id` and `name`, when they have them. */
  productNodes: { id: string | undefined; name: string | undefined }[]
  /** Set when a JSON-LD script of the page does not parse: the page is then left alone. */
  invalidJsonLd: boolean
}

interface JsonLdScript {
  element: RawTextElement
  document: unknown
}

interface ParsedPage {
  scan: HtmlScan
  scripts: JsonLdScript[]
  invalidJsonLd: boolean
}

function attribute(element: { attributes: Map<string, string> }, name: string): string | undefined {
  return element.attributes.get(name)
}

function isJsonLdScript(element: RawTextElement): boolean {
  if (element.tag.name !== 'script') return false
  const type = attribute(element.tag, 'type')?.trim().toLowerCase()
  return type === 'application/ld+json'
}

function parsePage(html: string): ParsedPage {
  const scan = scanHtml(html)
  const scripts: JsonLdScript[] = []
  let invalidJsonLd = false
  for (const element of scan.rawText) {
    if (!isJsonLdScript(element)) continue
    const text = html.slice(element.contentStart, element.contentEnd)
    try {
      scripts.push({ element, document: JSON.parse(text) })
    } catch {
      invalidJsonLd = true
    }
  }
  return { scan, scripts, invalidJsonLd }
}

function isNode(value: unknown): value is JsonLdNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The Product nodes of the documents: top level, in top-level arrays and in `@graph`, as `mergeJsonLd` finds them. */
function productNodes(documents: readonly unknown[]): JsonLdNode[] {
  const nodes: JsonLdNode[] = []
  for (const document of documents) {
    const candidates = Array.isArray(document)
      ? document
      : isNode(document)
        ? [document, ...(Array.isArray(document['@graph']) ? document['@graph'] : [])]
        : []
    for (const node of candidates) if (isProductNode(node)) nodes.push(node)
  }
  return nodes
}

function resolveUrl(href: string, base: string | undefined): string | undefined {
  const trimmed = href.trim()
  if (URL.canParse(trimmed)) return new URL(trimmed).href
  if (base !== undefined && URL.canParse(trimmed, base)) return new URL(trimmed, base).href
  return undefined
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values.map((value) => value.trim()).filter((value) => value !== ''))]
}

/**
 * Reads the product markers, the canonical URL, the title and the Product nodes of a page.
 *
 * @param pageUrl The page's own URL, against which a relative canonical `href` is resolved.
 */
export function readProductPage(html: string, pageUrl?: string): ProductPage {
  const { scan, scripts, invalidJsonLd } = parsePage(html)
  const metaIds: string[] = []
  const attributeIds: string[] = []
  let canonicalUrl: string | undefined
  let ogTitle: string | undefined
  for (const tag of scan.tags) {
    const marked = attribute(tag, PRODUCT_ATTRIBUTE)
    if (marked !== undefined) attributeIds.push(marked)
    if (tag.name === 'meta') {
      const name = attribute(tag, 'name')?.trim().toLowerCase()
      const content = attribute(tag, 'content')
      if (name === PRODUCT_META_NAME && content !== undefined) metaIds.push(content)
      if (attribute(tag, 'property')?.trim().toLowerCase() === 'og:title' && content !== undefined) {
        ogTitle ??= content.trim() || undefined
      }
    }
    if (tag.name === 'link' && canonicalUrl === undefined) {
      const rel =
        attribute(tag, 'rel')
          ?.toLowerCase()
          .split(/[\t\n\f\r ]+/) ?? []
      const href = attribute(tag, 'href')
      if (rel.includes('canonical') && href !== undefined) canonicalUrl = resolveUrl(href, pageUrl)
    }
  }
  const titleElement = scan.rawText.find((element) => element.tag.name === 'title')
  const title =
    ogTitle ??
    (titleElement === undefined
      ? undefined
      : decodeEntities(html.slice(titleElement.contentStart, titleElement.contentEnd)).trim() || undefined)
  const metaProducts = distinct(metaIds)
  return {
    productIds: metaProducts.length > 0 ? metaProducts : distinct(attributeIds),
    canonicalUrl,
    title,
    productNodes: productNodes(scripts.map((script) => script.document)).map((node) => ({
      id: typeof node['@id'] === 'string' ? node['@id'] : undefined,
      name: typeof node.name === 'string' ? node.name : undefined,
    })),
    invalidJsonLd,
  }
}

/** What {@link addProductJsonLd} did to a page. */
export type AddProductJsonLdResult =
  | { status: 'added' | 'merged' | 'unchanged' | 'own-markup'; html: string }
  | { status: 'skipped'; reason: string; html: string }

/** The scripts' nodes `mergeJsonLd` would merge `id` into: the node with that `@id`, else the only one without. */
function mergeTarget(
  scripts: readonly JsonLdScript[],
  id: unknown,
): { script: JsonLdScript; node: JsonLdNode } | undefined {
  const found = scripts.flatMap((script) => productNodes([script.document]).map((node) => ({ script, node })))
  const withoutId = found.filter(({ node }) => node['@id'] === undefined)
  return found.find(({ node }) => node['@id'] === id) ?? (withoutId.length === 1 ? withoutId[0] : undefined)
}

/** Options of {@link addProductJsonLd}. */
export interface AddProductJsonLdOptions {
  /** `nonce` of the script element added, for a Content Security Policy that requires one. */
  nonce?: string
}

/**
 * `html` with `node` (a Product node whose `@id` is the page's product) in its JSON-LD, so that the page
 * keeps exactly one Product node: merged into the page's own Product node with the same `@id` (or its
 * only Product node without `@id`), else added as a script element at the end of the head. Other
 * scripts are left byte for byte; a merged script is re-serialized with the safe serializer.
 *
 * The page is left alone (`skipped`) when one of its JSON-LD scripts does not parse, when it has no
 * head to add to, or when the merge would leave it with more than one Product node; and as it is
 * (`own-markup`) when its own Product node already carries review markup (`aggregateRating` or `review`),
 * which the page's generator keeps up to date: a review component that marks up the reviews it shows.
 * A script this function added, or merged into (it then carries `data-verified-reviews-jsonld`), is its
 * own, and is brought up to date.
 */
export function addProductJsonLd(
  html: string,
  node: JsonLdNode,
  options: AddProductJsonLdOptions = {},
): AddProductJsonLdResult {
  const { scan, scripts, invalidJsonLd } = parsePage(html)
  if (invalidJsonLd) {
    return { status: 'skipped', reason: 'a JSON-LD script of the page does not parse', html }
  }
  const target = mergeTarget(scripts, node['@id'])
  if (
    target !== undefined &&
    !isOwnScript(target.script.element) &&
    (target.node.aggregateRating !== undefined || target.node.review !== undefined)
  ) {
    return { status: 'own-markup', html }
  }
  const documents = scripts.map((script) => script.document)
  const merged = mergeJsonLd(documents, node)
  if (productNodes(merged).length !== 1) {
    return {
      status: 'skipped',
      reason: `the page already has ${productNodes(documents).length} Product nodes, none with @id ${JSON.stringify(node['@id'])}`,
      html,
    }
  }
  if (merged.length > documents.length) {
    const at = scan.headEnd ?? scan.bodyStart
    if (at === undefined) return { status: 'skipped', reason: 'the page has no head element', html }
    const tag = jsonLdScriptTag(node, { id: INJECTED_SCRIPT_ID, ...options })
    return { status: 'added', html: html.slice(0, at) + tag + html.slice(at) }
  }
  const index = merged.findIndex((document, position) => document !== documents[position])
  const script = scripts[index]
  if (script === undefined) return { status: 'unchanged', html }
  const { contentStart, contentEnd, tag } = script.element
  const text = serializeJsonLd(merged[index])
  if (html.slice(contentStart, contentEnd) === text) return { status: 'unchanged', html }
  // The page's start tag keeps its attributes; the marker goes just before its `>`.
  const startTag = isOwnScript(script.element)
    ? html.slice(tag.start, tag.end)
    : `${html.slice(tag.start, tag.end - 1)} ${MERGED_SCRIPT_ATTRIBUTE}>`
  return { status: 'merged', html: html.slice(0, tag.start) + startTag + text + html.slice(contentEnd) }
}
