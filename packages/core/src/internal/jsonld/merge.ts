import { isObject } from '../base/validate.ts'
import { JsonLdInputError } from './json-ld-input-error.ts'

/** A JSON-LD node: any JSON object. */
export type JsonLdNode = Record<string, unknown>

/** schema.org types that are a Product, so that a page's ProductGroup or Vehicle node is found too. */
const PRODUCT_TYPES = new Set([
  'Product',
  'ProductGroup',
  'ProductModel',
  'ProductCollection',
  'IndividualProduct',
  'SomeProducts',
  'DietarySupplement',
  'Drug',
  'Vehicle',
  'Car',
  'Motorcycle',
  'BusOrCoach',
  'MotorizedBicycle',
])

/** The bare type names of a node's `@type`: `https://schema.org/Product`, `schema:Product` and `Product` are `Product`. */
export function schemaTypes(type: unknown): string[] {
  return (Array.isArray(type) ? type : [type])
    .filter((item) => typeof item === 'string')
    .map((item) => item.replace(/^(?:https?:\/\/schema\.org\/|schema:)/, ''))
}

/** True when `node` is typed as a schema.org Product or one of its subtypes. */
export function isProductNode(node: unknown): node is JsonLdNode {
  return isObject(node) && schemaTypes(node['@type']).some((type) => PRODUCT_TYPES.has(type))
}

/**
 * One Product node from several nodes of the same product: members of later nodes win, so the page's
 * own node goes first and the review markup last. The `@type` of the first node with a more specific
 * type than `Product` (a `ProductGroup`, say) is kept, and a node without `@id` takes the others' `@id`.
 *
 * @throws JsonLdInputError when a node is not a Product or two nodes have different `@id`s.
 */
export function mergeProductNodes(...nodes: readonly object[]): JsonLdNode {
  let id: unknown
  let type: unknown
  const merged: JsonLdNode = {}
  nodes.forEach((node, index) => {
    if (!isProductNode(node)) {
      throw new JsonLdInputError(`nodes[${index}].@type`, 'is not a schema.org Product type')
    }
    if (node['@id'] !== undefined) {
      if (id !== undefined && node['@id'] !== id) {
        throw new JsonLdInputError(
          `nodes[${index}].@id`,
          `is ${JSON.stringify(node['@id'])} but an earlier node is ${JSON.stringify(id)}; only nodes of one product merge`,
        )
      }
      id = node['@id']
    }
    if (type === undefined || (node['@type'] !== 'Product' && type === 'Product')) type = node['@type']
    Object.assign(merged, node)
  })
  const context = (nodes as readonly JsonLdNode[]).find((node) => node['@context'] !== undefined)?.[
    '@context'
  ]
  const { '@context': _context, '@type': _type, '@id': _id, ...members } = merged
  return {
    ...(context === undefined ? {} : { '@context': context }),
    '@type': type,
    ...(id === undefined ? {} : { '@id': id }),
    ...members,
  }
}

/** A Product node of a page's documents, where it is and how to replace it. */
interface Found {
  node: JsonLdNode
  /** Index of the document that holds it. */
  position: number
  /** Replaces the found node with `replacement` in a copy of the documents. */
  replace(replacement: JsonLdNode): unknown[]
}

/** Every Product node of the documents, at the top, in top-level arrays, or in an `@graph`. */
function productNodesOf(documents: readonly unknown[]): Found[] {
  const found: Found[] = []
  documents.forEach((document, position) => {
    const add = (node: JsonLdNode, makeDocument: (replacement: JsonLdNode) => unknown) =>
      found.push({
        node,
        position,
        replace: (replacement) =>
          documents.map((item, index) => (index === position ? makeDocument(replacement) : item)),
      })
    if (Array.isArray(document)) {
      document.forEach((node, at) => {
        if (isProductNode(node)) add(node, (r) => document.map((n, i) => (i === at ? r : n)))
      })
      return
    }
    if (!isObject(document)) return
    if (isProductNode(document)) add(document, (r) => r)
    const graph = document['@graph']
    if (!Array.isArray(graph)) return
    graph.forEach((node, at) => {
      if (!isProductNode(node)) return
      add(node, (r) => {
        const { '@context': _context, ...nested } = r
        return { ...document, '@graph': graph.map((n, i) => (i === at ? nested : n)) }
      })
    })
  })
  return found
}

/** The Product nodes of the documents: at the top, in top-level arrays and in `@graph`. */
export function productNodesIn(documents: readonly unknown[]): JsonLdNode[] {
  return productNodesOf(documents).map((found) => found.node)
}

/**
 * The Product node of the documents that a node with `@id` `id` merges into: the node with that
 * `@id`, else the only Product node without one; undefined when there is none.
 */
export function mergeTarget(documents: readonly unknown[], id: unknown): Found | undefined {
  const products = productNodesOf(documents)
  const withoutId = products.filter((found) => found.node['@id'] === undefined)
  return (
    products.find((found) => found.node['@id'] === id) ?? (withoutId.length === 1 ? withoutId[0] : undefined)
  )
}

/**
 * The page's JSON-LD documents (each the parsed content of one `application/ld+json` script) with
 * `productNode` merged into the page's own Product node, so that the page keeps one Product node:
 * the node with the same `@id`, else the page's only Product node without an `@id` (which takes
 * `productNode`'s `@id`). When neither exists, `productNode` is appended as a document of its own.
 * The documents are not modified; a new array is returned.
 */
export function mergeJsonLd(documents: readonly unknown[], productNode: object): unknown[] {
  const target = mergeTarget(documents, (productNode as JsonLdNode)['@id'])
  if (target === undefined) return [...documents, productNode]
  const merged = mergeProductNodes(target.node, productNode)
  if (target.node['@context'] === undefined) delete merged['@context']
  return target.replace(merged)
}
