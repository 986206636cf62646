import { describe, expect, it } from 'vitest'
import { resolveLocale } from './locale.ts'

describe('resolveLocale', () => {
  it.each([
    ['fr-CA', 'fr'],
    ['pt-BR', 'pt'],
    ['pt_PT', 'pt'],
    ['EN-us', 'en'],
    ['cs', 'cs'],
    ['el-GR', 'el'],
    ['sr-Latn-RS', 'en'],
    ['ja', 'en'],
    ['', 'en'],
    ['not a tag!', 'en'],
  ])('resolves %j to %s', (input, expected) => {
    expect(resolveLocale(input)).toBe(expected)
  })

  it('gives English for nothing', () => {
    expect(resolveLocale()).toBe('en')
    expect(resolveLocale(null)).toBe('en')
  })

  it('takes the first supported language of a list', () => {
    expect(resolveLocale(['ja-JP', 'de-AT', 'fr'])).toBe('de')
  })

  it('takes an Intl.Locale', () => {
    expect(resolveLocale(new Intl.Locale('sk-SK'))).toBe('sk')
  })

  it('reads an Accept-Language header by quality', () => {
    expect(resolveLocale('ja;q=0.9, nl-BE;q=0.8, *;q=0.5, pl;q=0.85')).toBe('pl')
  })

  it('skips languages an Accept-Language header refuses with q=0', () => {
    expect(resolveLocale('fr;q=0, it')).toBe('it')
  })
})
