// @ts-check
import { readFileSync } from 'node:fs'
import { parseEnv } from 'node:util'
import verifiedReviews from '@verified-reviews/astro'
import { defineConfig } from 'astro/config'

const root = new URL('./', import.meta.url)

/**
 * A `VERIFIED_REVIEWS_*` variable from the environment, else from the `.env` files the integration also
 * reads (the most specific first).
 * @param {string} name
 */
function setting(name) {
  if (process.env[name]) return process.env[name]
  for (const file of ['.env.production.local', '.env.production', '.env.local', '.env']) {
    let text
    try {
      text = readFileSync(new URL(file, root), 'utf8')
    } catch {
      continue
    }
    const value = parseEnv(text)[name]
    if (value) return value
  }
  return undefined
}

// Without credentials the demo reads the local sandbox (`pnpm sandbox --port 4010`) with its default
// credentials, which are public; with them, the real API (or the VERIFIED_REVIEWS_ORIGIN they name).
const credentials = Boolean(
  setting('VERIFIED_REVIEWS_CLIENT_ID') && setting('VERIFIED_REVIEWS_CLIENT_SECRET'),
)
const sandbox = {
  origin: setting('VERIFIED_REVIEWS_ORIGIN') ?? 'http://127.0.0.1:4010',
  clientId: 'sandbox-client-id',
  clientSecret: 'sandbox-client-secret',
}

// The workspace packages export their sources under this condition: the demo runs on them, unbuilt, in
// every Vite environment of the build (the `node --conditions` of the scripts covers this config file).
const SOURCE_CONDITION = '@verified-reviews/source'
const sourceCondition = {
  name: 'verified-reviews-source-condition',
  /** @param {string} name @param {{ resolve?: { conditions?: string[] } }} config */
  configEnvironment(name, config) {
    const defaults =
      name === 'client'
        ? ['module', 'browser', 'development|production']
        : ['module', 'node', 'development|production']
    return { resolve: { conditions: [SOURCE_CONDITION, ...(config.resolve?.conditions ?? defaults)] } }
  },
}

export default defineConfig({
  // The JSON-LD `@id` of every product page is its URL under `site`.
  site: process.env.ASTRO_DEMO_SITE_URL || 'http://localhost:4321',
  output: 'static',
  trailingSlash: 'always',
  // The end-to-end tests build into folders of their own, so a build of yours stays as it is.
  outDir: process.env.ASTRO_DEMO_OUT_DIR || './dist',
  cacheDir: process.env.ASTRO_DEMO_CACHE_DIR || './node_modules/.astro',
  i18n: {
    locales: ['en', 'fr', 'de'],
    defaultLocale: 'en',
    routing: { prefixDefaultLocale: true, redirectToDefaultLocale: false },
  },
  redirects: { '/': '/en/' },
  integrations: [verifiedReviews(credentials ? {} : sandbox)],
  vite: { plugins: [sourceCondition] },
})
