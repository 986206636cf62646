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
  })
})
