import { LANGUAGES, type Language } from '../../types/published.ts'
import { remembered } from '../base/remembered.ts'

/** The languages of `translated_review`, which every user-visible string is translated into. */
export type Locale = Language

/** Every supported language, in alphabetical order. */
export const SUPPORTED_LOCALES: readonly Locale[] = Object.freeze([...LANGUAGES])

/** True for a language of {@link SUPPORTED_LOCALES}. */
export function isLocale(value: string): value is Locale {
  return (SUPPORTED_LOCALES as readonly string[]).includes(value)
}

/** The language used when none of the requested ones is supported. */
export const DEFAULT_LOCALE: Locale = 'en'

/** The language subtag of a BCP 47 tag (`fr-CA` → `fr`, `pt_BR` → `pt`), or undefined when it is no tag. */
function languageOf(tag: string): string | undefined {
  try {
    return new Intl.Locale(tag.trim().replaceAll('_', '-')).language
  } catch {
    return undefined
  }
}

/** The tags of an `Accept-Language` value, best first (`fr-CH, fr;q=0.9, en;q=0.8`). */
function acceptLanguageTags(header: string): string[] {
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.split(';')
      const q = parameters.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined)
      return { tag: tag.trim(), quality: q === undefined ? 1 : Number(q), index }
    })
    .filter(({ tag, quality }) => tag !== '' && tag !== '*' && quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map(({ tag }) => tag)
}

/**
 * The supported language that best matches `input`: a BCP 47 tag (`fr-CA` → `fr`), a list of tags in
 * order of preference, or an `Accept-Language` header value. Anything else gives `en`.
 */
export function resolveLocale(
  input?: string | Intl.Locale | readonly (string | Intl.Locale)[] | null,
): Locale {
  if (typeof input !== 'string') return resolveCandidates(input)
  // A page resolves the same few tags over and over: remembered, up to 500 of them.
  return remembered(resolvedTags, input, () => resolveCandidates(input), 500)
}

const resolvedTags = new Map<string, Locale>()

function resolveCandidates(
  input: string | Intl.Locale | readonly (string | Intl.Locale)[] | null | undefined,
): Locale {
  const candidates = input === undefined || input === null ? [] : Array.isArray(input) ? input : [input]
  for (const candidate of candidates) {
    const tags = typeof candidate === 'string' ? acceptLanguageTags(candidate) : [candidate.toString()]
    for (const tag of tags) {
      const language = languageOf(tag)
      if (language !== undefined && isLocale(language)) return language
    }
  }
  return DEFAULT_LOCALE
}
