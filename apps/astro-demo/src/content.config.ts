import { defineCollection } from 'astro:content'
import { productReviewsLoader } from '@verified-reviews/astro/loaders'
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
  // One entry per product of the catalogue: its rating (the stars of the home page and the details pages)
  // and its reviews. The loader fetches the reviews of the products it names, or syncs the account when
  // that costs no more calls (this catalogue is the whole sandbox account: the sync, 200 reviews per
  // call), incremental on later builds; the review components and the injection of the same build read
  // it instead of fetching again.
  reviews: defineCollection({ loader: productReviewsLoader({ products: PRODUCT_IDS }) }),
}
