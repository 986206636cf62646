/** Lowercase hexadecimal SHA-256 of the UTF-8 bytes of `text`, through Web Crypto. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** The Genesis token of a day: `sha256hex(idWebsite + secret + YYYY-MM-DD)`, the date in UTC. */
export function genesisToken(websiteId: string, secret: string, now: Date = new Date()): Promise<string> {
  return sha256Hex(`${websiteId}${secret}${now.toISOString().slice(0, 10)}`)
}
