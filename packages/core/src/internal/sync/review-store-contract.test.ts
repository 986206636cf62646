import { reviewStoreContract } from '../../../../../test/fixtures/review-store-contract.ts'
import type { BrandReview } from '../../types/published.ts'
import { createMemoryReviewStore } from './memory-store.ts'

reviewStoreContract('createMemoryReviewStore', {
  products: () => createMemoryReviewStore(),
  brands: () => createMemoryReviewStore<BrandReview>(),
})
