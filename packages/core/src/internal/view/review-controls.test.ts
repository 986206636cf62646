import { describe, expect, it } from 'vitest'
import { getTextFormatter } from '../i18n/translate.ts'
import { reviewControls } from './review-controls.ts'

const en = getTextFormatter('en')

describe('reviewControls', () => {
  it('offers every order with the rates kept, and every rate with the order kept', () => {
    const [sort, filter] = reviewControls({ sort: 'oldest', rates: [4], cursor: 'c' }, en)
    expect(sort?.options.map((option) => option.view)).toEqual([
      { sort: 'newest', rates: [4] },
      { sort: 'oldest', rates: [4] },
      { sort: 'highest', rates: [4] },
      { sort: 'lowest', rates: [4] },
    ])
    expect(filter?.options.map((option) => [option.key, option.view])).toEqual([
      ['all', { sort: 'oldest', rates: [] }],
      ['5', { sort: 'oldest', rates: [5] }],
      ['4', { sort: 'oldest', rates: [4] }],
      ['3', { sort: 'oldest', rates: [3] }],
      ['2', { sort: 'oldest', rates: [2] }],
      ['1', { sort: 'oldest', rates: [1] }],
    ])
  })

  it('marks the order and the rates shown now', () => {
    const [sort, filter] = reviewControls({ sort: 'highest', rates: [] }, en)
    expect(sort?.options.filter((option) => option.current).map((option) => option.label)).toEqual([
      en.t('sortHighestRating'),
    ])
    expect(filter?.options.filter((option) => option.current).map((option) => option.label)).toEqual([
      en.t('allRatings'),
    ])
  })
})
