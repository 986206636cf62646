import type {
  Incentivization,
  Media,
  ProductReview,
  ReviewExtra,
  ReviewRate,
  Translations,
} from '../../types/published.ts'
import { initialOf } from '../display/author-name.ts'
import type { Locale } from '../i18n/locale.ts'

/** A merchant reply as a public endpoint sends it: the text, its date and its translation for the page. */
export interface PublicReply {
  comment: string
  /** ISO 8601 date-time. */
  date: string
  /** The page language's translation alone, when there is one. */
  translated_comment?: Translations
}

/**
 * A review as a public endpoint sends it: the fields the review components draw, and nothing else. No
 * order date, order reference or id, product identifiers (EAN, UPC, MPN…), publication date, nor any
 * field the API may add later.
 */
export interface PublicReview {
  review_id: string
  author_firstname: string
  /** The initial alone (`D` of `Dupont`, shown `Marie D.`); empty when the author did not disclose it. */
  author_lastname: string
  is_personal_data_disclosed: boolean
  locale: string
  /** ISO 8601 date-time: when the consumer wrote the review. */
  review_date: string
  review_content: string
  review_rate: ReviewRate
  is_verified: boolean
  incentivization: Incentivization
  /** Images, as URLs of their size variants. */
  medias: Media[]
  syndicated_review: boolean
  syndicated_review_source: string
  syndicated_review_source_url: string
  /** The page language's translation alone, when there is one. */
  translated_review: Translations
  moderations: PublicReply[]
  /** Extra criteria keyed by criterion code: scores (`I1`) and texts (`S`), as the components show them. */
  extras: Record<string, ReviewExtra>
}

// Names that would reach a prototype where a key comes from the API.
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

const text = (value: unknown): string => (typeof value === 'string' ? value : '')

function only(translations: unknown, locale: Locale): Translations {
  const shown = isObject(translations) ? translations[locale] : undefined
  return typeof shown === 'string' ? { [locale]: shown } : {}
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

function medias(value: unknown): Media[] {
  if (!Array.isArray(value)) return []
  return value.filter(isObject).map((media) => ({
    type: text(media.type),
    small: text(media.small),
    medium: text(media.medium),
    large: text(media.large),
  }))
}

function replies(value: unknown, locale: Locale): PublicReply[] {
  if (!Array.isArray(value)) return []
  return value.filter(isObject).map((reply) => {
    const translated = only(reply.translated_comment, locale)
    return {
      comment: text(reply.comment),
      date: text(reply.date),
      ...(Object.keys(translated).length > 0 ? { translated_comment: translated } : {}),
    }
  })
}

function extras(value: unknown): Record<string, ReviewExtra> {
  if (!isObject(value)) return {}
  const kept: [string, ReviewExtra][] = []
  for (const [code, extra] of Object.entries(value)) {
    if (UNSAFE_KEYS.has(code) || !isObject(extra)) continue
    const names = { display_name: text(extra.display_name), label: text(extra.label) }
    if (extra.type === 'I1' && typeof extra.value === 'number' && Number.isFinite(extra.value)) {
      kept.push([code, { ...names, type: 'I1', value: extra.value }])
    } else if (extra.type === 'S' && typeof extra.value === 'string') {
      kept.push([code, { ...names, type: 'S', value: extra.value }])
    }
  }
  // fromEntries defines own properties, never a prototype.
  return Object.fromEntries(kept)
}

/**
 * A review as a public endpoint sends it: an allowlist of what the review components show, each value
 * of the type they expect, and nothing more. The translations keep the page's language alone (a review
 * carries all 13, about 12 times the text shown), the last name its initial (the components show
 * `Marie D.`); the order's date, reference and id, the product identifiers and any other field of the
 * API's record are left out.
 */
export function publicReview(review: ProductReview, locale: Locale): PublicReview {
  const record = review as unknown as Record<string, unknown>
  const disclosed = record.is_personal_data_disclosed === true
  const last = text(record.author_lastname).trim()
  const initial = disclosed && last !== '' ? initialOf(last) : ''
  const rate = record.review_rate
  return {
    review_id: text(record.review_id),
    author_firstname: text(record.author_firstname),
    author_lastname: initial,
    is_personal_data_disclosed: disclosed,
    locale: text(record.locale),
    review_date: text(record.review_date),
    review_content: text(record.review_content),
    review_rate: (typeof rate === 'number' && Number.isFinite(rate) ? rate : 0) as ReviewRate,
    is_verified: record.is_verified === true,
    incentivization: text(record.incentivization) as Incentivization,
    medias: medias(record.medias),
    syndicated_review: record.syndicated_review === true,
    syndicated_review_source: text(record.syndicated_review_source),
    syndicated_review_source_url: text(record.syndicated_review_source_url),
    translated_review: only(record.translated_review, locale),
    moderations: replies(record.moderations, locale),
    extras: extras(record.extras),
  }
}
