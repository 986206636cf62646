import { VerifiedReviewsOptionError } from '../option-error.ts'

/** What one option may be. */
export type OptionRule =
  | { kind: 'string' }
  | { kind: 'url' }
  | { kind: 'boolean' }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'oneOf'; values: readonly string[] }
  | { kind: 'object' }
  | { kind: 'function' }
  | { kind: 'strings' }
  | { kind: 'stringsOrFunction' }

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'function') return 'a function'
  if (Array.isArray(value)) return 'an array'
  if (value === null) return 'null'
  return typeof value === 'object' ? 'an object' : String(value)
}

function problem(rule: OptionRule, value: unknown): string | undefined {
  switch (rule.kind) {
    case 'string':
      return typeof value === 'string' && value.trim() !== '' ? undefined : 'must be a non-empty string'
    case 'url':
      return typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)
        ? undefined
        : 'must be an absolute http(s) URL'
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false'
    case 'integer':
      return Number.isInteger(value) && (value as number) >= rule.min && (value as number) <= rule.max
        ? undefined
        : `must be a whole number from ${rule.min} to ${rule.max}`
    case 'oneOf':
      return rule.values.includes(value as string) ? undefined : `must be one of ${rule.values.join(', ')}`
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? undefined
        : 'must be an object'
    case 'function':
      return typeof value === 'function' ? undefined : 'must be a function'
    case 'strings':
      return Array.isArray(value) && value.every((item) => typeof item === 'string' && item.trim() !== '')
        ? undefined
        : 'must be an array of non-empty strings'
    case 'stringsOrFunction':
      return typeof value === 'function' ? undefined : problem({ kind: 'strings' }, value)
  }
}

/**
 * Checks an options object once, before anything runs: unknown names (a typo would otherwise be
 * ignored) and wrong values throw a {@link VerifiedReviewsOptionError} naming the option. `undefined`
 * stands for "not given".
 */
export function checkOptions(
  owner: string,
  options: unknown,
  rules: Readonly<Record<string, OptionRule>>,
): void {
  if (options === undefined) return
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new VerifiedReviewsOptionError(owner, '(options)', `must be an object, got ${describe(options)}`)
  }
  for (const [name, value] of Object.entries(options)) {
    // Own rules only: an option named `constructor` or `__proto__` is no option, not Object's.
    const rule = Object.hasOwn(rules, name) ? rules[name] : undefined
    if (rule === undefined) {
      throw new VerifiedReviewsOptionError(
        owner,
        name,
        `is not an option (the options are ${Object.keys(rules).join(', ')})`,
      )
    }
    if (value === undefined) continue
    const message = problem(rule, value)
    if (message !== undefined) {
      throw new VerifiedReviewsOptionError(owner, name, `${message}, got ${describe(value)}`)
    }
  }
}
