/** The author fields every review of the API carries. */
export interface ReviewAuthor {
  author_firstname: string
  author_lastname: string
  /** Whether the author agreed to share personal data: when false, only the first name is shown. */
  is_personal_data_disclosed: boolean
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/**
 * The name under which a review is shown and marked up: the first name and the initial of the last name
 * (`Marie D.`), the first name alone when the last name is empty or the author did not agree to share
 * personal data, and an empty string when there is no first name.
 */
export function reviewAuthorName(review: ReviewAuthor): string {
  const first = review.author_firstname.trim()
  if (first === '') return ''
  const last = review.author_lastname.trim()
  if (!review.is_personal_data_disclosed || last === '') return first
  return `${first} ${initialOf(last)}.`
}

/**
 * The first grapheme of a trimmed name, so that an initial never splits an accented letter or an emoji.
 * Two code points below U+0300 (where combining marks begin; no joiner, variation selector, spacing mark
 * or prepended character comes before it) are always two graphemes, the pair CR LF aside, which a
 * trimmed name cannot start with: the first character is then the initial, without a segmenter.
 */
export function initialOf(last: string): string {
  if (last.charCodeAt(0) < 0x300 && (last.length === 1 || last.charCodeAt(1) < 0x300)) return last.charAt(0)
  return graphemes.segment(last)[Symbol.iterator]().next().value?.segment ?? ''
}
