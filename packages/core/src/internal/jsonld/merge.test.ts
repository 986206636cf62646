import { describe, expect, it } from 'vitest'
import { isProductNode, mergeJsonLd, mergeProductNodes } from './merge.ts'

const url = 'https://shop.example/products/kettle'
const reviewsNode = {
  '@context': 'https://schema.org',
  '@type': 'Product',
  '@id': url,
  aggregateRating: {
    '@type': 'AggregateRating',
    ratingValue: 4.5,
    reviewCount: 2,
    bestRating: 5,
    worstRating: 1,
  },
}

function productNodes(documents: unknown[]): unknown[] {
  return documents
    .flatMap((document) => {
      const nodes = Array.isArray(document) ? document : [document]
      return nodes.flatMap((node) => [node, ...((node as { '@graph'?: unknown[] })['@graph'] ?? [])])
    })
    .filter(isProductNode)
}

describe('mergeProductNodes', () => {
  it('keeps the members of both nodes, later ones winning', () => {
    const page = {
      '@context': 'https://schema.org',
      '@type': 'Product',
      '@id': url,
      name: 'Kettle',
      sku: 'K-1',
    }
    expect(mergeProductNodes(page, { '@type': 'Product', '@id': url, sku: 'K-2' })).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Product',
      '@id': url,
      name: 'Kettle',
      sku: 'K-2',
    })
  })

  it('keeps a more specific Product type', () => {
    const merged = mergeProductNodes({ '@type': 'ProductGroup', '@id': url }, reviewsNode)
    expect(merged['@type']).toBe('ProductGroup')
  })

  it('throws naming the node whose @id differs', () => {
    const call = () => mergeProductNodes(reviewsNode, { '@type': 'Product', '@id': 'https://shop.example/x' })
    expect(call).toThrow(expect.objectContaining({ field: 'nodes[1].@id' }))
  })

  it('throws naming the node that is not a Product', () => {
    expect(() => mergeProductNodes({ '@type': 'Organization' })).toThrow(/^nodes\[0\]\.@type: /)
  })
})

describe('mergeJsonLd', () => {
  it("merges into the page's Product node of the same @id, leaving one Product node", () => {
    const page = [{ '@context': 'https://schema.org', '@type': 'Product', '@id': url, name: 'Kettle' }]
    const merged = mergeJsonLd(page, reviewsNode)
    expect(productNodes(merged)).toHaveLength(1)
    expect(merged).toEqual([{ ...reviewsNode, name: 'Kettle' }])
  })

  it('merges into a Product node inside an @graph without adding a context to it', () => {
    const page = [
      {
        '@context': 'https://schema.org',
        '@graph': [
          { '@type': 'WebPage', '@id': `${url}#page` },
          { '@type': 'Product', '@id': url, name: 'Kettle' },
        ],
      },
    ]
    const merged = mergeJsonLd(page, reviewsNode)
    expect(productNodes(merged)).toHaveLength(1)
    expect(merged).toEqual([
      {
        '@context': 'https://schema.org',
        '@graph': [
          { '@type': 'WebPage', '@id': `${url}#page` },
          { '@type': 'Product', '@id': url, name: 'Kettle', aggregateRating: reviewsNode.aggregateRating },
        ],
      },
    ])
  })

  it("merges into the page's only Product node without @id, which takes the @id", () => {
    const page = [{ '@context': 'https://schema.org', '@type': 'https://schema.org/Product', name: 'Kettle' }]
    const merged = mergeJsonLd(page, reviewsNode)
    expect(productNodes(merged)).toHaveLength(1)
    expect(merged[0]).toMatchObject({
      '@id': url,
      name: 'Kettle',
      aggregateRating: reviewsNode.aggregateRating,
    })
  })

  it('appends the node when the page has no Product node', () => {
    const page = [{ '@context': 'https://schema.org', '@type': 'BreadcrumbList' }]
    expect(mergeJsonLd(page, reviewsNode)).toEqual([...page, reviewsNode])
  })

  it('merges into a Product node inside a top-level array', () => {
    const page = [[{ '@context': 'https://schema.org', '@type': 'Product', '@id': url, name: 'Kettle' }]]
    expect(mergeJsonLd(page, reviewsNode)).toEqual([[{ ...reviewsNode, name: 'Kettle' }]])
  })

  it('does not modify the documents it was given', () => {
    const page = [{ '@context': 'https://schema.org', '@type': 'Product', '@id': url, name: 'Kettle' }]
    const copy = structuredClone(page)
    mergeJsonLd(page, reviewsNode)
    expect(page).toEqual(copy)
  })
})
