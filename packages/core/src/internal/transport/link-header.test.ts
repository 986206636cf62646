import { describe, expect, it } from 'vitest'
import { findLink, parseLinkHeader } from './link-header.ts'

const base = 'https://api.example.com/v1/published/products/reviews?limit=20'

describe('parseLinkHeader', () => {
  it('reads next and prev links in either order', () => {
    const header = '<https://a.test/r?cursor=p>; rel="prev", <https://a.test/r?cursor=n>; rel="next"'
    expect(findLink(header, 'next')).toBe('https://a.test/r?cursor=n')
    expect(findLink(header, 'prev')).toBe('https://a.test/r?cursor=p')
  })

  it('resolves a relative target against the request address', () => {
    expect(findLink('</v1/published/products/reviews?cursor=abc&limit=20>; rel=next', 'next', base)).toBe(
      'https://api.example.com/v1/published/products/reviews?cursor=abc&limit=20',
    )
  })

  it('resolves a query-only target against the request address', () => {
    expect(findLink('<?cursor=xyz>; rel="next"', 'next', base)).toBe(
      'https://api.example.com/v1/published/products/reviews?cursor=xyz',
    )
  })

  it('keeps an absolute target on another host as it is', () => {
    expect(findLink('<https://other.test/x?cursor=1>; rel="next"', 'next', base)).toBe(
      'https://other.test/x?cursor=1',
    )
  })

  it('reads a link whose rel holds several relation types', () => {
    const [link] = parseLinkHeader('<https://a.test/?cursor=2>; rel="next last"')
    expect(link?.rels).toEqual(['next', 'last'])
    expect(findLink('<https://a.test/?cursor=2>; rel="last next"', 'next')).toBe('https://a.test/?cursor=2')
  })

  it('keeps parameters named after prototype members as the server sent them', () => {
    const [link] = parseLinkHeader('<https://a.test/?c=1>; constructor=a; __proto__=b; rel=next')
    expect(Object.entries(link?.params ?? {})).toEqual([
      ['constructor', 'a'],
      ['__proto__', 'b'],
      ['rel', 'next'],
    ])
    expect(link?.rels).toEqual(['next'])
  })

  it('matches relation types case-insensitively', () => {
    expect(findLink('<https://a.test/?c=1>; REL="Next"', 'next')).toBe('https://a.test/?c=1')
  })

  it('reads extra parameters, with or without quotes, and parameters without a value', () => {
    const [link] = parseLinkHeader(
      '<https://a.test/>; title="Page 2"; type=application/json; crossorigin; rel=next',
    )
    expect(link?.params).toEqual({ title: 'Page 2', type: 'application/json', crossorigin: '', rel: 'next' })
  })

  it('keeps commas and semicolons inside quoted values and targets', () => {
    const header = '<https://a.test/?ids=1,2;3>; title="a, b; c"; rel="next", <https://a.test/p>; rel=prev'
    const links = parseLinkHeader(header)
    expect(links.map((link) => link.target)).toEqual(['https://a.test/?ids=1,2;3', 'https://a.test/p'])
    expect(links[0]?.params.title).toBe('a, b; c')
  })

  it('unescapes backslash escapes in quoted values', () => {
    const [link] = parseLinkHeader('<https://a.test/>; title="say \\"hi\\""; rel=next')
    expect(link?.params.title).toBe('say "hi"')
  })

  it('decodes RFC 8187 extended values', () => {
    const [link] = parseLinkHeader("<https://a.test/>; title*=UTF-8'en'%E2%82%AC%20rates; rel=next")
    expect(link?.params.title).toBe('€ rates')
  })

  it('ignores a second rel parameter of the same link', () => {
    expect(findLink('<https://a.test/>; rel=prev; rel=next', 'next')).toBeUndefined()
  })

  it('tolerates extra whitespace and empty elements', () => {
    const header = ' ,  <https://a.test/?cursor=n> ;rel = "next" ,, '
    expect(findLink(header, 'next')).toBe('https://a.test/?cursor=n')
  })

  it('skips garbage between links', () => {
    const header = 'nonsense; rel=next, <https://a.test/?cursor=n>; rel=next'
    expect(findLink(header, 'next')).toBe('https://a.test/?cursor=n')
  })

  it('finds nothing when no link has the relation', () => {
    expect(findLink('<https://a.test/?cursor=p>; rel="prev"', 'next')).toBeUndefined()
    expect(findLink(null, 'next')).toBeUndefined()
    expect(findLink('', 'next')).toBeUndefined()
  })
})
