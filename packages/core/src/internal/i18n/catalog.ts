import type { Locale } from './locale.ts'
import { bg } from './messages/bg.ts'
import { cs } from './messages/cs.ts'
import { de } from './messages/de.ts'
import { el } from './messages/el.ts'
import { en } from './messages/en.ts'
import { es } from './messages/es.ts'
import { fr } from './messages/fr.ts'
import { it } from './messages/it.ts'
import { nl } from './messages/nl.ts'
import { pl } from './messages/pl.ts'
import { pt } from './messages/pt.ts'
import { sk } from './messages/sk.ts'
import { tr } from './messages/tr.ts'
import type { Messages } from './types.ts'

/** Messages of every supported language. */
export const CATALOG: { readonly [L in Locale]: Messages } = {
  bg,
  cs,
  de,
  el,
  en,
  es,
  fr,
  it,
  nl,
  pl,
  pt,
  sk,
  tr,
}
