import { defineCollection } from 'astro:content'
import { productRatingsLoader, productReviewsLoader } from '@verified-reviews/astro/loaders'
import { file } from 'astro/loaders'
import { z } from 'astro/zod'
import { CATALOGUE_FILE, catalogueProducts, catalogueShops, PRODUCT_IDS } from './lib/catalogue.ts'

export const collections = {
  products: defineCollection({
    loader: file(CATALOGUE_FILE, { parser: (text) => catalogueProducts(text) }),
    schema: z.object({
      id: z.string(),
      name: z.string(),
      brand: z.string(),
      sku: z.string(),
      gtin13: z.string(),
      mpn: z.string(),
      price: z.number(),
      currency: z.string().length(3),
      availability: z.enum(['InStock', 'OutOfStock']),
      description: z.string(),
      image: z.string(),
      color: z.string().optional(),
    }),
  }),
  shops: defineCollection({
    loader: file(CATALOGUE_FILE, { parser: (text) => catalogueShops(text) }),
    schema: z.object({ id: z.string(), name: z.string() }),
  }),
  // The ratings of the catalogue's products, from the product summaries the review sync fetches anyway
  // (no call of their own), for the stars of the home page and the details pages.
  ratings: defineCollection({
    loader: productRatingsLoader({ products: PRODUCT_IDS }),
  }),
  // Every review in one paged sync (200 per call), incremental on later builds; the review components and
  // the injection of the same build read it instead of syncing again.
  reviews: defineCollection({ loader: productReviewsLoader() }),
}
