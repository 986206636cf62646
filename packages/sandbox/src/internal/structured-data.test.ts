import { describe, expect, it } from 'vitest'
import { authorName, scriptSafeJson, toScripts } from './structured-data.ts'

describe('authorName', () => {
  it('gives the first name and the initial of the last name', () => {
    expect(authorName('Marie', 'Dubois')).toBe('Marie D.')
    expect(authorName('Έλενα', 'Παπαδοπούλου')).toBe('Έλενα Π.')
  })

  it('gives the first name alone when the last name is empty', () => {
    expect(authorName('Marie', '')).toBe('Marie')
  })
})

describe('scriptSafeJson', () => {
  it('escapes what could end a script element or break a JavaScript string', () => {
    const text = scriptSafeJson({ body: '</script><b>&\u2028\u2029' })
    expect(text).not.toMatch(/[<>&\u2028\u2029]/)
    expect(JSON.parse(text)).toEqual({ body: '</script><b>&\u2028\u2029' })
  })
})

describe('toScripts', () => {
  it('writes one script per block with its stable id, leaving out absent blocks', () => {
    const html = toScripts({ reviews: { '@context': 'https://schema.org', review: [] } })
    expect(html).toBe(
      '<script type="application/ld+json" id="vr-jsonld-reviews">{"@context":"https://schema.org","review":[]}</script>',
    )
  })
})
