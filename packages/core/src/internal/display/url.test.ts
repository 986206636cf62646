import { describe, expect, it } from 'vitest'
import { pageHref, webUrl } from './url.ts'

describe('webUrl', () => {
  it('keeps absolute http(s) URLs, as the URL parser writes them', () => {
    expect(webUrl('https://shop.test/a b')).toBe('https://shop.test/a%20b')
  })

  it('drops other schemes, even disguised with blanks and control characters', () => {
    for (const value of [
      'javascript:alert(1)',
      ' java\tscript:alert(1)',
      'data:text/html,x',
      '/relative',
      '',
    ]) {
      expect(webUrl(value)).toBeUndefined()
    }
  })
})

describe('pageHref', () => {
  it('keeps relative and http(s) hrefs as given', () => {
    expect(pageHref('?vr_cursor=a')).toBe('?vr_cursor=a')
    expect(pageHref('https://shop.test/p?x=1')).toBe('https://shop.test/p?x=1')
  })

  it('drops hrefs of any other scheme', () => {
    expect(pageHref('java\nscript:alert(1)')).toBeUndefined()
    expect(pageHref(undefined)).toBeUndefined()
  })
})
