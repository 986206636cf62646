import { serializeJsonLd } from '@verified-reviews/core/jsonld'

/** Attributes of a JSON-LD script element. */
export interface JsonLdScriptAttributes {
  /** `id` of the script element. */
  id?: string | undefined
  /** `nonce` of the script element, for a Content Security Policy that allows scripts by nonce. */
  nonce?: string | undefined
}

/**
 * A `<script type="application/ld+json">` holding the core's serialization of `data`, in which `<`,
 * `>`, `&`, U+2028 and U+2029 are escaped so no content can end the element; nothing for `null`.
 */
export function JsonLdScript({ data, id, nonce }: JsonLdScriptAttributes & { data: object | null }) {
  if (data === null) return null
  return (
    <script
      type="application/ld+json"
      id={id}
      nonce={nonce}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: serializeJsonLd escapes every character that could end the element
      dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }}
    />
  )
}
