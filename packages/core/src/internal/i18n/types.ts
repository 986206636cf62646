import type { Locale } from './locale.ts'
import type { en } from './messages/en.ts'

/** A message whose wording depends on a number: one text per plural category of the language. */
export type PluralMessage = { readonly other: string } & {
  readonly [Category in Exclude<Intl.LDMLPluralRule, 'other'>]?: string
}

type English = typeof en

/** The key of a user-visible message. */
export type MessageKey = keyof English

/** Every message of one language; plural in every language where English is plural. */
export type Messages = {
  readonly [K in MessageKey]: English[K] extends string ? string : PluralMessage
}

type PlaceholdersOf<Text> = Text extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PlaceholdersOf<Rest>
  : never

type MessagePlaceholders<Message> = Message extends string
  ? PlaceholdersOf<Message>
  : PlaceholdersOf<Message[keyof Message]>

/**
 * The parameters of a message: one per placeholder; numbers are formatted for the language, and a plural
 * message is chosen by `count`.
 */
export type MessageParams<K extends MessageKey> = {
  [Name in MessagePlaceholders<English[K]>]: Name extends 'count' ? number : string | number
}

/** The parameter argument of a message: required when it has placeholders, absent otherwise. */
export type MessageArgs<K extends MessageKey> = [MessagePlaceholders<English[K]>] extends [never]
  ? []
  : [params: MessageParams<K>]

/** A message function bound to one language: `t(key, params)`. */
export interface Translator {
  <K extends MessageKey>(key: K, ...args: MessageArgs<K>): string
  /** The supported language the translator speaks. */
  readonly locale: Locale
}
