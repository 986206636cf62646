/**
 * A page as a browser reads it, by parse5 (the WHATWG HTML parsing algorithm, scripting enabled as in
 * the browsers and crawlers that read JSON-LD), with the offsets of what the injector edits, so that it
 * can splice its markup into the page's own text and leave every other byte as it was.
 *
 * Node only: the injector entry and the command reach it, no browser-safe entry does.
 */
import { type DefaultTreeAdapterTypes, defaultTreeAdapter, parse } from 'parse5'

type Node = DefaultTreeAdapterTypes.Node
type ChildNode = DefaultTreeAdapterTypes.ChildNode
export type Element = DefaultTreeAdapterTypes.Element
export type Document = DefaultTreeAdapterTypes.Document

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml'
const BOM = '\ufeff'

/** An HTML `script` element of the document, with its text and where it sits in the page. */
export interface ScriptElement {
  element: Element
  /** Attribute values, decoded by the parser; names lowercase. */
  attributes: Map<string, string>
  /** The text the parser gives the script (its character references are not decoded, as in a browser). */
  text: string
  /** Where it sits in the page's text; undefined when the page was parsed without offsets. */
  location: ScriptLocation | undefined
  /** Whether it is a child of the head element. */
  inHead: boolean
}

/** Offsets of a script element in the page's text. */
export interface ScriptLocation {
  /** Offset of `<` of its start tag. */
  start: number
  /** Offset just after its start tag: where its text starts. */
  contentStart: number
  /** Offset of `<` of its end tag; undefined when the page ends before one. */
  contentEnd: number | undefined
}

/** A parsed page. */
export interface ParsedHtml {
  /** The page's text, as given (a byte order mark included). */
  source: string
  document: Document
  /** The head element (the parser always makes one, from the page's tag or implied). */
  head: Element
  /**
   * Every element of the document in tree order, HTML and foreign (SVG, MathML). The content of
   * `<template>` is not part of the document and is left out, as is the content of `<noscript>`, which
   * with scripting enabled is text.
   */
  elements: Element[]
  /** The HTML `script` elements among them (not those of SVG), in tree order. */
  scripts: ScriptElement[]
}

function isElement(node: Node): node is Element {
  return 'tagName' in node
}

function childrenOf(node: Node): ChildNode[] {
  return 'childNodes' in node ? node.childNodes : []
}

/** Whether `element` is the HTML element `name` (not an SVG or MathML one of the same name). */
export function isHtmlElement(element: Element, name: string): boolean {
  return element.namespaceURI === HTML_NAMESPACE && element.tagName === name
}

/** The element's attributes; the parser keeps the first of duplicates, as browsers do. */
export function attributesOf(element: Element): Map<string, string> {
  return new Map(
    element.attrs.filter((attribute) => attribute.prefix === undefined).map((a) => [a.name, a.value]),
  )
}

/** The concatenated text of the element's child text nodes. */
export function childTextOf(element: Element): string {
  return element.childNodes
    .map((node) => (node.nodeName === '#text' && 'value' in node ? node.value : ''))
    .join('')
}

/**
 * Parses `html` as a browser does (a leading byte order mark is dropped, as the decoder drops it).
 * Without `offsets`, where elements sit in the text is not kept, which halves the time taken.
 */
export function parseHtml(html: string, { offsets = true }: { offsets?: boolean } = {}): ParsedHtml {
  const shift = html.startsWith(BOM) ? 1 : 0
  const document = parse(shift === 0 ? html : html.slice(shift), { sourceCodeLocationInfo: offsets })
  const elements: Element[] = []
  const scripts: ScriptElement[] = []
  let head: Element | undefined
  for (const node of nodesUnder(document)) {
    if (!isElement(node)) continue
    elements.push(node)
    if (head === undefined && isHtmlElement(node, 'head')) head = node
    if (isHtmlElement(node, 'script')) {
      const { startTag, endTag } = node.sourceCodeLocation ?? {}
      scripts.push({
        element: node,
        attributes: attributesOf(node),
        text: childTextOf(node),
        location:
          startTag === undefined
            ? undefined
            : {
                start: startTag.startOffset + shift,
                contentStart: startTag.endOffset + shift,
                contentEnd: endTag === undefined ? undefined : endTag.startOffset + shift,
              },
        inHead: head !== undefined && node.parentNode === head,
      })
    }
  }
  if (head === undefined) throw new Error('parse5 made a document without a head element')
  return { source: html, document, head, elements, scripts }
}

/** The document's title as `document.title` gives it: the first HTML `<title>`, its whitespace collapsed. */
export function documentTitle(parsed: ParsedHtml): string | undefined {
  const title = parsed.elements.find((element) => isHtmlElement(element, 'title'))
  if (title === undefined) return undefined
  return childTextOf(title)
    .replace(/[\t\n\f\r ]+/g, ' ')
    .trim()
}

/**
 * The nodes under `node` (not `node` itself) in tree order, walked with a stack of its own, not by
 * recursion: a page nests its elements as deep as it likes (50,000 `<div>` overflowed a recursive walk).
 * `descend` says whether a node's own children are walked.
 */
export function* nodesUnder(
  node: Node,
  descend: (node: ChildNode) => boolean = () => true,
): Generator<ChildNode> {
  const pending: ChildNode[] = [...childrenOf(node)].reverse()
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    yield next
    if (!descend(next)) continue
    const children = childrenOf(next)
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i] as ChildNode)
  }
}

/**
 * Where the page's text of a node ends: the end of its end tag, else the furthest end of the node and
 * its descendants that have a place in the text (the end tag of one, else its start tag or its text).
 */
function endOf(node: ChildNode): number | undefined {
  const ownEnd = (each: ChildNode): number | undefined => {
    const location = each.sourceCodeLocation
    if (location === undefined || location === null) return undefined
    if (!isElement(each)) return location.endOffset
    const { startTag, endTag } = each.sourceCodeLocation ?? {}
    return endTag?.endOffset ?? startTag?.endOffset
  }
  // A node without a place in the text (one the parser implied) hides its descendants, as it always did.
  const located = (each: ChildNode) =>
    each.sourceCodeLocation !== undefined && each.sourceCodeLocation !== null
  let end = ownEnd(node)
  if (end === undefined || !located(node) || (isElement(node) && node.sourceCodeLocation?.endTag)) return end
  for (const each of nodesUnder(node, located)) {
    const eachEnd = ownEnd(each)
    if (eachEnd !== undefined && eachEnd > end) end = eachEnd
  }
  return end
}

/** Where the first node under `node` (in tree order) with a place in the text starts. */
function firstLocated(node: Node): number | undefined {
  for (const each of nodesUnder(node)) {
    const start = each.sourceCodeLocation?.startOffset
    if (start !== undefined) return start
  }
  return undefined
}

/**
 * Offsets where an element written into the page would be parsed as the last child of the head, best
 * first: before `</head>`; without one, after the head's last child; for a head the parser implies
 * with nothing in it, after `<html>`, else before the body's first content. Each must still be checked
 * by parsing the result: a page can end inside its head (an unclosed `<title>`).
 */
export function headEndCandidates(parsed: ParsedHtml): number[] {
  const shift = parsed.source.startsWith(BOM) ? 1 : 0
  const { head } = parsed
  const location = head.sourceCodeLocation
  if (location?.endTag !== undefined) return [location.endTag.startOffset + shift]
  const candidates: (number | undefined)[] = []
  const lastChild = [...head.childNodes].reverse().find((child) => endOf(child) !== undefined)
  if (lastChild !== undefined) candidates.push(endOf(lastChild))
  else if (location?.startTag !== undefined) candidates.push(location.startTag.endOffset)
  else {
    const html = parsed.document.childNodes.find(isElement)
    candidates.push(html?.sourceCodeLocation?.startTag?.endOffset)
    const body = html?.childNodes.find((child) => isElement(child) && child !== head)
    if (body !== undefined) candidates.push(body.sourceCodeLocation?.startOffset ?? firstLocated(body))
    candidates.push(parsed.source.length - shift)
  }
  return [
    ...new Set(candidates.filter((offset): offset is number => offset !== undefined).map((o) => o + shift)),
  ]
}

/**
 * The document as one string, for comparison: two pages that parse alike give the same string. Every
 * node counts (the document's mode, doctypes, elements with their namespace and attributes, the content
 * of `<template>`, text and comments), written out with a stack of its own rather than by parse5's
 * serializer, which recurses once per level of nesting.
 */
export function serializeDocument(document: Document): string {
  const parts: string[] = [document.mode]
  // A string is the end of an element; a node is written, then its children.
  const pending: (Node | string)[] = [...document.childNodes].reverse()
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next === 'string') {
      parts.push(next)
      continue
    }
    if (isElement(next)) {
      const attributes = next.attrs.map((a) => [a.prefix ?? '', a.namespace ?? '', a.name, a.value])
      parts.push(`<${JSON.stringify([next.namespaceURI, next.tagName, attributes])}`)
      pending.push('>')
      // A `<template>`'s children are in its content, a fragment apart from the document.
      const content = 'content' in next ? (next as DefaultTreeAdapterTypes.Template).content : next
      for (let i = content.childNodes.length - 1; i >= 0; i--) pending.push(content.childNodes[i] as Node)
    } else if (defaultTreeAdapter.isTextNode(next)) parts.push(`t${JSON.stringify(next.value)}`)
    else if (defaultTreeAdapter.isCommentNode(next)) parts.push(`c${JSON.stringify(next.data)}`)
    else if (defaultTreeAdapter.isDocumentTypeNode(next)) {
      parts.push(`d${JSON.stringify([next.name, next.publicId, next.systemId])}`)
    }
  }
  return parts.join('\u0000')
}

/** Takes `element` out of its parent (in a parsed tree that is not used for anything else after). */
export function detach(element: Element): void {
  const siblings = element.parentNode?.childNodes
  const index = siblings?.indexOf(element) ?? -1
  if (siblings !== undefined && index !== -1) siblings.splice(index, 1)
}

/** Makes `text` the only child of `element` (in a parsed tree used for comparison only). */
export function replaceText(element: Element, text: string): void {
  element.childNodes = []
  defaultTreeAdapter.insertText(element, text)
}

/** Gives `element` an empty attribute `name` unless it has one (in a parsed tree used for comparison only). */
export function addAttribute(element: Element, name: string): void {
  defaultTreeAdapter.adoptAttributes(element, [{ name, value: '' }])
}
