import type { ValidationIssueCode } from '../base/errors.ts'
import { t } from './translate.ts'
import type { MessageKey } from './types.ts'

/** The message of each problem a shopper can cause, in the catalogue. */
const FIELD_ERROR_KEYS = {
  required: 'fieldRequired',
  email: 'fieldEmail',
  date: 'fieldDate',
  number: 'fieldNumber',
  'non-negative-number': 'fieldNumberZeroOrMore',
} as const satisfies Record<ValidationIssueCode, MessageKey>

/**
 * What is wrong with a field, for the shopper beside it: in the supported language that best matches
 * `locale` when the problem has a `code` (one a shopper can cause: an empty or malformed value), else
 * the English `message` as it is (a problem only the code can cause, or the service's own words).
 *
 * @example fieldErrorIn('fr', { message: 'must be an email address', code: 'email' }) // 'doit être une adresse e-mail'
 */
export function fieldErrorIn(locale: string, issue: { message: string; code?: unknown }): string {
  const key = Object.hasOwn(FIELD_ERROR_KEYS, String(issue.code))
    ? FIELD_ERROR_KEYS[issue.code as ValidationIssueCode]
    : undefined
  return key === undefined ? issue.message : t(locale, key)
}
