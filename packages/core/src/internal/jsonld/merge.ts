import { isObject } from '../validate.ts'
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

/** The bare type name of `https://schema.org/Product`, `schema:Product` or `Product`. */
function typeName(type: string): string {
  return type.replace(/^(?:https?:\/\/schema\.org\/|schema:)/, '')
}

/** True when `node` is typed as a schema.org Product or one of its subtypes. */
export function isProductNode(node: unknown): node is JsonLdNode {
  if (!isObject(node)) return false
  const types = Array.isArray(node['@type']) ? node['@type'] : [node['@type']]
  return types.some((type) => typeof type === 'string' && PRODUCT_TYPES.has(typeName(type)))
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

interface Found {
  /** Replaces the found node with `replacement` in a copy of the documents. */
  replace(replacement: JsonLdNode): unknown[]
  node: JsonLdNode
}

/** Every Product node of the documents, at the top, in top-level arrays, or in an `@graph`. */
function productNodesOf(documents: readonly unknown[]): Found[] {
  const found: Found[] = []
  const replaceIn =
    (position: number, makeDocument: (replacement: JsonLdNode) => unknown) => (replacement: JsonLdNode) =>
      documents.map((document, index) => (index === position ? makeDocument(replacement) : document))
  documents.forEach((document, position) => {
    if (Array.isArray(document)) {
      document.forEach((node, at) => {
        if (isProductNode(node)) {
          found.push({
            node,
            replace: replaceIn(position, (r) => document.map((n, i) => (i === at ? r : n))),
          })
        }
      })
      return
    }
    if (!isObject(document)) return
    if (isProductNode(document)) found.push({ node: document, replace: replaceIn(position, (r) => r) })
    const graph = document['@graph']
    if (Array.isArray(graph)) {
      graph.forEach((node, at) => {
        if (isProductNode(node)) {
          const inGraph = (r: JsonLdNode) => {
            const { '@context': _context, ...nested } = r
            return { ...document, '@graph': graph.map((n, i) => (i === at ? nested : n)) }
          }
          found.push({ node, replace: replaceIn(position, inGraph) })
        }
      })
    }
  })
  return found
}

/**
 * The page's JSON-LD documents (each the parsed content of one `application/ld+json` script) with
 * `productNode` merged into the page's own Product node, so that the page keeps one Product node:
 * the node with the same `@id`, else the page's only Product node without an `@id` (which takes
 * `productNode`'s `@id`). When neither exists, `productNode` is appended as a document of its own.
 * The documents are not modified; a new array is returned.
 */
export function mergeJsonLd(documents: readonly unknown[], productNode: object): unknown[] {
  const products = productNodesOf(documents)
  const sameId = products.find((found) => found.node['@id'] === (productNode as JsonLdNode)['@id'])
  const withoutId = products.filter((found) => found.node['@id'] === undefined)
  const target = sameId ?? (withoutId.length === 1 ? withoutId[0] : undefined)
  if (target === undefined) return [...documents, productNode]
  const merged = mergeProductNodes(target.node, productNode)
  if (target.node['@context'] === undefined) delete merged['@context']
  return target.replace(merged)
}
