import verifiedReviews from '@verified-reviews/astro'
import { defineConfig } from 'astro/config'
import { PRODUCTS } from './src/catalogue'

export default defineConfig({
  // The JSON-LD `@id` of every product page is its URL under `site`.
  site: 'https://shop.example',
  integrations: [
    // Credentials from VERIFIED_REVIEWS_CLIENT_ID and VERIFIED_REVIEWS_CLIENT_SECRET (environment or .env).
    // `products`: the build fetches the reviews of these products alone (a few calls, not one per page).
    verifiedReviews({ products: PRODUCTS.map((product) => product.id) }),
  ],
})
