import { describe, expect, it } from 'vitest'
import { getTextFormatter } from '../i18n/translate.ts'
import { messageParts } from './message-parts.ts'

describe('messageParts', () => {
  it('cuts a message where its elements go', () => {
    expect(messageParts(getTextFormatter('en'), 'syndicatedFrom', ['source'])).toEqual([
      { text: 'Syndicated from ' },
      { slot: 'source' },
      { text: '' },
    ])
  })

  it('fills the other placeholders with their values', () => {
    const parts = messageParts(getTextFormatter('en'), 'reviewsSince', ['date'], { count: 1280 })
    expect(parts.filter((part) => 'slot' in part)).toEqual([{ slot: 'date' }])
    expect(parts.map((part) => ('text' in part ? part.text : '')).join('')).toContain('1,280')
  })
})
