/** The language subtag of a review's `locale` ("fr_FR", "fr-FR", "FR" → "fr"), or `undefined`. */
export function languageOf(locale: string | null | undefined): string | undefined {
  if (typeof locale !== 'string') return undefined
  const match = /^([a-z]{2,3})(?:[-_][a-z0-9]{2,8})*$/i.exec(locale.trim())
  return match?.[1]?.toLowerCase()
}
