import { readFileSync } from 'node:fs'
import { parseEnv } from 'node:util'

const PREFIX = 'VERIFIED_REVIEWS_'

/**
 * The `VERIFIED_REVIEWS_*` variables of the project's `.env` files, read in Vite's order (`.env`,
 * `.env.local`, `.env.[mode]`, `.env.[mode].local`, later files winning), under the process's own
 * environment, which wins over every file. Astro gives `.env` values to pages only, not to
 * integrations and loaders, so the integration reads them itself.
 */
export function verifiedReviewsEnv(root: URL, mode: string): Record<string, string> {
  const found: Record<string, string> = {}
  for (const name of ['.env', '.env.local', `.env.${mode}`, `.env.${mode}.local`]) {
    let text: string
    try {
      text = readFileSync(new URL(name, root), 'utf8')
    } catch {
      continue
    }
    for (const [key, value] of Object.entries(parseEnv(text))) {
      if (key.startsWith(PREFIX) && value !== undefined) found[key] = value
    }
  }
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith(PREFIX) && value !== undefined && value !== '') found[key] = value
  }
  return found
}
