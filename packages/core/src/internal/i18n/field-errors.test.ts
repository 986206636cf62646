import { describe, expect, it } from 'vitest'
import type { ValidationIssueCode } from '../base/errors.ts'
import { Issues } from '../base/validate.ts'
import { checkPurchaseEvent } from '../purchase-events/purchase-event-checks.ts'
import { fieldErrorIn } from './field-errors.ts'
import { SUPPORTED_LOCALES } from './locale.ts'

const CODES: readonly ValidationIssueCode[] = ['required', 'email', 'date', 'number', 'non-negative-number']

describe('fieldErrorIn', () => {
  it.each(SUPPORTED_LOCALES)('says every problem a shopper can cause in %s, each differently', (locale) => {
    const texts = CODES.map((code) => fieldErrorIn(locale, { message: 'English', code }))
    for (const text of texts) expect(text).not.toMatch(/^$|^English$|^field|[{}]/)
    expect(new Set(texts).size).toBe(CODES.length)
  })

  it('says them in English as the checks word them', () => {
    const issues = new Issues()
    checkPurchaseEvent(
      { purchase_date: '2026-03-01T10:00Z', price: -1, consumer: { email: 'x', birth_date: 'x' } },
      0,
      undefined,
      issues,
    )
    const coded = issues.list.filter((issue) => issue.code !== undefined)
    expect(coded.map((issue) => issue.code).sort()).toEqual(
      ['date', 'email', 'non-negative-number', 'required'].sort(),
    )
    for (const issue of coded) expect(fieldErrorIn('en', issue)).toBe(issue.message)
  })

  it('resolves the language as the components do, and keeps a problem without a code as it is', () => {
    expect(fieldErrorIn('fr-BE', { message: 'is required', code: 'required' })).toBe('est obligatoire')
    expect(fieldErrorIn('xx', { message: 'is required', code: 'required' })).toBe('is required')
    expect(fieldErrorIn('fr', { message: 'is not a known member' })).toBe('is not a known member')
    expect(fieldErrorIn('fr', { message: 'blocked', code: 'toString' })).toBe('blocked')
  })
})
