import { defineCollection } from 'astro:content'
import { productReviewsLoader } from '@verified-reviews/astro/loaders'
import { PRODUCTS } from './catalogue'

export const collections = {
  // One entry per product: its rating and reviews, fetched for these products alone (a few calls), and
  // only what changed on later builds.
  reviews: defineCollection({
    loader: productReviewsLoader({ products: PRODUCTS.map((product) => product.id) }),
  }),
}
