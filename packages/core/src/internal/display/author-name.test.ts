import { describe, expect, it } from 'vitest'
import { reviewAuthorName } from './author-name.ts'

const author = (author_firstname: string, author_lastname: string, is_personal_data_disclosed = true) => ({
  author_firstname,
  author_lastname,
  is_personal_data_disclosed,
})

describe('reviewAuthorName', () => {
  it('is the first name and the initial of the last name', () => {
    expect(reviewAuthorName(author('Marie', 'Dupont'))).toBe('Marie D.')
  })

  it('is the first name alone when the last name is empty', () => {
    expect(reviewAuthorName(author('Marie', '  '))).toBe('Marie')
  })

  it('is the first name alone when the author did not agree to share personal data', () => {
    expect(reviewAuthorName(author('Marie', 'Dupont', false))).toBe('Marie')
  })

  it('is empty without a first name', () => {
    expect(reviewAuthorName(author(' ', 'Dupont'))).toBe('')
  })

  it('keeps a whole grapheme as the initial', () => {
    expect(reviewAuthorName(author('Zoë', 'E\u0301lodie'))).toBe('Zoë E\u0301.')
    expect(reviewAuthorName(author('Ana', '\u{1F469}\u200D\u{1F52C} Lab'))).toBe(
      'Ana \u{1F469}\u200D\u{1F52C}.',
    )
    expect(reviewAuthorName(author('Ana', 'e\uFE0Fx'))).toBe('Ana e\uFE0F.')
  })

  it('takes the first grapheme as a segmenter does, for code points below U+0300 next to each kind of character', () => {
    const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
    // Below U+0300 a code point is a control, CR, LF or a plain character: one of each beside every code point.
    const kinds = ['A', '\u00E9', '\u0001', '\r', '\n', ' ', '\u02FF']
    const wrong: string[] = []
    for (let code = 0; code < 0x300; code++) {
      for (const kind of kinds) {
        for (const pair of [String.fromCharCode(code) + kind, kind + String.fromCharCode(code)]) {
          const last = `${pair}z`.trim()
          const expected = [...graphemes.segment(last)][0]?.segment
          if (reviewAuthorName(author('A', last)) !== `A ${expected}.`) wrong.push(last)
        }
      }
    }
    expect(wrong).toEqual([])
  })
})
