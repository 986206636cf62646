import { defineConfig } from 'astro/config'

// No integration needed for the loaders: they read VERIFIED_REVIEWS_CLIENT_ID and
// VERIFIED_REVIEWS_CLIENT_SECRET (environment or .env) themselves.
export default defineConfig({
  // The JSON-LD `@id` of every product page is its URL under `site`.
  site: 'https://shop.example',
})
