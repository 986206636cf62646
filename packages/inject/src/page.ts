import { mergeTarget, productNodesIn } from '@verified-reviews/core/internal'
import {
  type JsonLdNode,
  type JsonLdScriptTagOptions,
  jsonLdScriptTag,
  mergeJsonLd,
  serializeJsonLd,
} from '@verified-reviews/core/jsonld'
import { declaresEncodingReason, metaEncoding } from './charset.ts'
import {
  addAttribute,
  attributesOf,
  detach,
  documentTitle,
  headEndCandidates,
  isHtmlElement,
  type ParsedHtml,
  parseHtml,
  replaceText,
  type ScriptElement,
  serializeDocument,
} from './html.ts'

/** The `name` of the meta element that marks a page's product: `<meta name="verified-reviews:product" content="SKU">`. */
export const PRODUCT_META_NAME = 'verified-reviews:product'

/** The attribute that marks an element's product: `<div data-verified-reviews-product="SKU">`. */
export const PRODUCT_ATTRIBUTE = 'data-verified-reviews-product'

/** `id` of the script element the injector adds. */
export const INJECTED_SCRIPT_ID = 'verified-reviews-jsonld'

/** Attribute the injector adds to a page's script it merged its markup into, so a later run may update it. */
export const MERGED_SCRIPT_ATTRIBUTE = 'data-verified-reviews-jsonld'

/** Whether the injector wrote this script (added it, or merged into it), and so may bring it up to date. */
function isOwnScript(script: ScriptElement | undefined): boolean {
  return (
    script?.attributes.get('id') === INJECTED_SCRIPT_ID ||
    script?.attributes.has(MERGED_SCRIPT_ATTRIBUTE) === true
  )
}

/** What a page says about its product, read by {@link readProductPage}. */
export interface ProductPage {
  /**
   * Every distinct product the page marks: those of `<meta name="verified-reviews:product">` when the
   * page has one, else those of `data-verified-reviews-product` attributes. One page describes one
   * product, so a page that marks several gets no markup; a product sold in variations is marked by
   * the list of their ids, comma separated (`SKU-1,SKU-2`), as one marker. Markers inside `<template>`
   * or `<noscript>` are not part of the page and do not count.
   */
  productIds: string[]
  /** `lang` of the `<html>` element: the language the page shows its reviews in; undefined without one. */
  language: string | undefined
  /** `href` of `<link rel="canonical">`, resolved against the page's URL; undefined without one. */
  canonicalUrl: string | undefined
  /**
   * Text of `<meta property="og:title">`, else of `<title>` (character references decoded): a
   * fallback for the product's name.
   */
  title: string | undefined
  /** The Product nodes already in the page's JSON-LD: their `@id`, `name` and `@type`, when they have them. */
  productNodes: { id: string | undefined; name: string | undefined; type: unknown }[]
  /**
   * Set when a JSON-LD script of the page does not parse, or nests arrays and objects more than
   * {@link MAX_JSON_LD_DEPTH} levels deep: the page is then left alone, for the reason in `jsonLdProblem`.
   */
  invalidJsonLd: boolean
  /** Why the page's JSON-LD is left alone (`invalidJsonLd`); undefined when it is not. */
  jsonLdProblem: string | undefined
}

/**
 * Deepest nesting of arrays and objects a page's JSON-LD may have for the injector to touch the page.
 * Real markup nests some ten levels. Writing a merged script back is recursive (`JSON.stringify`): a
 * Product node nesting 100,000 levels overflowed the call stack and aborted a whole run (issue 19).
 */
export const MAX_JSON_LD_DEPTH = 100

interface JsonLdScript {
  script: ScriptElement
  document: unknown
}

interface ParsedPage {
  parsed: ParsedHtml
  scripts: JsonLdScript[]
  /** Why the page's JSON-LD is left alone: a script that does not parse or nests too deep. */
  jsonLdProblem: string | undefined
}

/** Whether `value` nests arrays and objects more than `limit` levels deep, walked with a stack of its own (no recursion). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 1 }]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue
    if (next.depth > limit) return true
    // Object.values gives an array's items too.
    for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 })
  }
  return false
}

/**
 * Whether the script is JSON-LD: an HTML `script` of the document (those of SVG, of `<template>` and of
 * `<noscript>` are not scripts a crawler reads) of type `application/ld+json`.
 */
function isJsonLdScript(script: ScriptElement): boolean {
  return script.attributes.get('type')?.trim().toLowerCase() === 'application/ld+json'
}

function parsePage(html: string, offsets: boolean): ParsedPage {
  const parsed = parseHtml(html, { offsets })
  const scripts: JsonLdScript[] = []
  let jsonLdProblem: string | undefined
  for (const script of parsed.scripts) {
    if (!isJsonLdScript(script)) continue
    let document: unknown
    try {
      // Not recursive in V8: any depth parses.
      document = JSON.parse(script.text)
    } catch {
      jsonLdProblem ??= 'a JSON-LD script of the page does not parse'
      continue
    }
    if (nestsDeeperThan(document, MAX_JSON_LD_DEPTH)) {
      jsonLdProblem ??= `a JSON-LD script of the page nests arrays and objects more than ${MAX_JSON_LD_DEPTH} levels deep`
      continue
    }
    scripts.push({ script, document })
  }
  return { parsed, scripts, jsonLdProblem }
}

/** `href` as an absolute URL, resolved against `base` when relative; undefined when it is none. */
export function resolveUrl(href: string, base: string | undefined): string | undefined {
  const trimmed = href.trim()
  if (URL.canParse(trimmed)) return new URL(trimmed).href
  if (base !== undefined && URL.canParse(trimmed, base)) return new URL(trimmed, base).href
  return undefined
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values.map((value) => value.trim()).filter((value) => value !== ''))]
}

/** The encoding the page's own `<meta>` declares (a byte order mark makes it UTF-8), as the parser would use it. */
function declaredEncodingOf(parsed: ParsedHtml): string | undefined {
  if (parsed.source.startsWith('\ufeff')) return 'utf-8'
  for (const element of parsed.elements) {
    const encoding = isHtmlElement(element, 'meta') ? metaEncoding(attributesOf(element)) : undefined
    if (encoding !== undefined) return encoding
  }
  return undefined
}

/**
 * Reads the product markers, the canonical URL, the title and the Product nodes of a page.
 *
 * @param pageUrl The page's own URL, against which a relative canonical `href` is resolved.
 */
export function readProductPage(html: string, pageUrl?: string): ProductPage {
  const { parsed, scripts, jsonLdProblem } = parsePage(html, false)
  const metaIds: string[] = []
  const attributeIds: string[] = []
  let canonicalUrl: string | undefined
  let ogTitle: string | undefined
  let language: string | undefined
  for (const element of parsed.elements) {
    const attributes = attributesOf(element)
    if (isHtmlElement(element, 'html')) language ??= attributes.get('lang')?.trim() || undefined
    const marked = attributes.get(PRODUCT_ATTRIBUTE)
    if (marked !== undefined) attributeIds.push(marked)
    if (isHtmlElement(element, 'meta')) {
      const name = attributes.get('name')?.trim().toLowerCase()
      const content = attributes.get('content')
      if (name === PRODUCT_META_NAME && content !== undefined) metaIds.push(content)
      if (attributes.get('property')?.trim().toLowerCase() === 'og:title' && content !== undefined) {
        ogTitle ??= content.trim() || undefined
      }
    }
    if (isHtmlElement(element, 'link') && canonicalUrl === undefined) {
      const rel =
        attributes
          .get('rel')
          ?.toLowerCase()
          .split(/[\t\n\f\r ]+/) ?? []
      const href = attributes.get('href')
      if (rel.includes('canonical') && href !== undefined) canonicalUrl = resolveUrl(href, pageUrl)
    }
  }
  const metaProducts = distinct(metaIds)
  return {
    productIds: metaProducts.length > 0 ? metaProducts : distinct(attributeIds),
    language,
    canonicalUrl,
    title: ogTitle ?? (documentTitle(parsed) || undefined),
    productNodes: productNodesIn(scripts.map((script) => script.document)).map((node) => ({
      id: typeof node['@id'] === 'string' ? node['@id'] : undefined,
      name: typeof node.name === 'string' ? node.name : undefined,
      type: node['@type'],
    })),
    invalidJsonLd: jsonLdProblem !== undefined,
    jsonLdProblem,
  }
}

/** What {@link addProductJsonLd} did to a page. */
export type AddProductJsonLdResult =
  | { status: 'added' | 'merged' | 'unchanged' | 'own-markup'; html: string }
  | { status: 'skipped'; reason: string; html: string }

/** Options of {@link addProductJsonLd}: the `nonce` of the script element added. */
export type AddProductJsonLdOptions = Pick<JsonLdScriptTagOptions, 'nonce'>

/**
 * Whether `html` (the page after the edit) parses as the page did before, but for the injector's
 * script, which holds `text`: the only script of the injector, in the head when `inHead`. For an
 * added script, `before` must be the page's parse untouched; for a merge, with the merged script's new
 * text and marker already set in it.
 */
function parsesAsIntended(before: string, html: string, text: string, inHead: boolean): boolean {
  const after = parseHtml(html, { offsets: false })
  const own = after.scripts.filter(isOwnScript)
  const [script] = own
  if (own.length !== 1 || script === undefined || script.text !== text || (inHead && !script.inHead))
    return false
  if (inHead) detach(script.element)
  return serializeDocument(after.document) === before
}

/**
 * `html` with `node` (a Product node whose `@id` is the page's product) in its JSON-LD, so that the page
 * keeps exactly one Product node: merged into the page's own Product node with the same `@id` (or its
 * only Product node without `@id`), else added as a script element at the end of the head. The page is
 * read by a standards-compliant HTML parser (parse5), and the edit is spliced into its text: every
 * byte outside the merged script (or the added one) stays as it was. Before answering, the result is
 * parsed again and must parse as the page did, plus the markup: one script of the injector, in the head
 * when added, and every other node of the page (its own scripts included) the same.
 *
 * The page is left alone (`skipped`) when it declares another encoding than UTF-8, when one of its
 * JSON-LD scripts does not parse or nests more than {@link MAX_JSON_LD_DEPTH} levels deep, when the
 * merge would leave it with more than one Product node, or when the markup cannot be placed without
 * changing how the rest of the page parses (a page that ends inside its head, say); and as it is (`own-markup`) when its own Product node already carries review markup
 * (`aggregateRating` or `review`), which the page's generator keeps up to date: a review component that
 * marks up the reviews it shows. A script this function added, or merged into (it then carries
 * `data-verified-reviews-jsonld`), is its own, and is brought up to date. JSON-LD inside `<template>`,
 * `<noscript>` or SVG is not the page's JSON-LD and is neither read nor merged into.
 */
export function addProductJsonLd(
  html: string,
  node: JsonLdNode,
  options: AddProductJsonLdOptions = {},
): AddProductJsonLdResult {
  const skipped = (reason: string): AddProductJsonLdResult => ({ status: 'skipped', reason, html })
  const { parsed, scripts, jsonLdProblem } = parsePage(html, true)
  const encoding = declaredEncodingOf(parsed)
  if (encoding !== undefined && encoding !== 'utf-8') return skipped(declaresEncodingReason(encoding))
  if (jsonLdProblem !== undefined) return skipped(jsonLdProblem)
  const documents = scripts.map((script) => script.document)
  const target = mergeTarget(documents, node['@id'])
  if (
    target !== undefined &&
    !isOwnScript(scripts[target.position]?.script) &&
    (target.node.aggregateRating !== undefined || target.node.review !== undefined)
  ) {
    return { status: 'own-markup', html }
  }
  const merged = mergeJsonLd(documents, node)
  if (productNodesIn(merged).length !== 1) {
    return skipped(
      `the page already has ${productNodesIn(documents).length} Product nodes, none with @id ${JSON.stringify(node['@id'])}`,
    )
  }
  if (merged.length > documents.length) {
    const tag = jsonLdScriptTag(node, { id: INJECTED_SCRIPT_ID, ...options })
    const text = serializeJsonLd(node)
    const before = serializeDocument(parsed.document)
    for (const at of headEndCandidates(parsed)) {
      const edited = html.slice(0, at) + tag + html.slice(at)
      if (parsesAsIntended(before, edited, text, true)) return { status: 'added', html: edited }
    }
    return skipped(
      'no place at the end of its head where a script parses as part of the head (does the page end inside its head?)',
    )
  }
  const index = merged.findIndex((document, position) => document !== documents[position])
  const found = scripts[index]
  if (found === undefined) return { status: 'unchanged', html }
  const { script } = found
  const text = serializeJsonLd(merged[index])
  const { start, contentStart, contentEnd } = script.location ?? {}
  if (start === undefined || contentStart === undefined || contentEnd === undefined) {
    return skipped('its JSON-LD script to merge into has no end tag')
  }
  if (html.slice(contentStart, contentEnd) === text) return { status: 'unchanged', html }
  // The page's start tag keeps its attributes; the marker goes just before its `>`.
  const own = isOwnScript(script)
  const startTag = own
    ? html.slice(start, contentStart)
    : `${html.slice(start, contentStart - 1)} ${MERGED_SCRIPT_ATTRIBUTE}>`
  const edited = html.slice(0, start) + startTag + text + html.slice(contentEnd)
  replaceText(script.element, text)
  if (!own) addAttribute(script.element, MERGED_SCRIPT_ATTRIBUTE)
  if (!parsesAsIntended(serializeDocument(parsed.document), edited, text, false)) {
    return skipped('merging into its JSON-LD script would change how the rest of the page parses')
  }
  return { status: 'merged', html: edited }
}

/**
 * Why a page the injector wrote is not as it should be, or undefined when it is: exactly one script of
 * the injector (in the head, when it was added), whose JSON-LD parses, and exactly one Product node in
 * the page's JSON-LD.
 */
export function injectedMarkupProblem(html: string, added: boolean): string | undefined {
  const { parsed, scripts, jsonLdProblem } = parsePage(html, false)
  const own = parsed.scripts.filter(isOwnScript)
  if (own.length !== 1) return `the page holds ${own.length} scripts of the injector, not 1`
  if (added && own[0]?.inHead !== true) return 'the script of the injector is not in the head'
  if (jsonLdProblem !== undefined) return jsonLdProblem
  const products = productNodesIn(scripts.map((script) => script.document)).length
  if (products !== 1) return `the page holds ${products} Product nodes, not 1`
  return undefined
}
