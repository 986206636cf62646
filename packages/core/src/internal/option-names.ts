import { ValidationError } from '../errors.ts'
import type { ClientOptions } from './client-options.ts'

/**
 * Every option of `createClient`. Typed over `ClientOptions`, so that an option added there and not
 * here (or left here once removed there) fails the type check.
 */
const CLIENT_OPTIONS: { readonly [Name in keyof Required<ClientOptions>]: true } = {
  clientId: true,
  clientSecret: true,
  origin: true,
  cursorSecret: true,
  publishedUrl: true,
  publishedTokenUrl: true,
  purchaseEventsUrl: true,
  purchaseEventsTokenUrl: true,
  legacyUrl: true,
  genesisUrl: true,
  websiteId: true,
  genesisSecret: true,
  fetch: true,
  timeout: true,
  totalTimeout: true,
  maxRetries: true,
  maxRetryWait: true,
  maxResponseBytes: true,
  signal: true,
  fetchOptions: true,
  headers: true,
  maxConcurrency: true,
  onRetry: true,
  onRateLimit: true,
  cache: true,
  tokenStore: true,
  rateBudget: true,
  requestOptions: true,
}

/** Edits (insertions, deletions, substitutions) from `a` to `b`. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      row.push(
        Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost),
      )
    }
    previous = row
  }
  return previous[b.length] as number
}

/** The option `name` was probably meant to be: the same in another case, else the nearest within a third of its letters (two at least). */
function meant(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase()
  const sameLetters = known.find((option) => option.toLowerCase() === lower)
  if (sameLetters !== undefined) return sameLetters
  let best: { option: string; edits: number } | undefined
  for (const option of known) {
    const edits = distance(lower, option.toLowerCase())
    const near = edits <= Math.max(2, Math.floor(option.length / 3))
    if (near && (best === undefined || edits < best.edits)) best = { option, edits }
  }
  return best?.option
}

/** Refuses options that are not an object, and names that are no option (a typo would be ignored). */
export function checkOptionNames(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ValidationError([{ field: 'options', message: 'must be an object of client options' }])
  }
  const known = Object.keys(CLIENT_OPTIONS)
  // Own names only: an option named `constructor` or `__proto__` is no option, not Object's.
  const unknown = Object.keys(options).filter((name) => !Object.hasOwn(CLIENT_OPTIONS, name))
  const [first, ...rest] = unknown.map((name) => {
    const guess = meant(name, known)
    return {
      field: name,
      message: `is not an option of createClient${guess === undefined ? '' : ` (did you mean ${guess}?)`}; the options are ${known.join(', ')}`,
    }
  })
  if (first !== undefined) throw new ValidationError([first, ...rest])
}
