import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { reviewStoreContract } from '../../../../../test/fixtures/review-store-contract.ts'
import type { BrandReview } from '../../types/published.ts'
import { createJsonFileReviewStore } from './json-file-store.ts'
import { createMemoryReviewStore } from './memory-store.ts'

reviewStoreContract('createMemoryReviewStore', {
  products: () => createMemoryReviewStore(),
  brands: () => createMemoryReviewStore<BrandReview>(),
})

const directories: string[] = []
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })))
})
const paths = new WeakMap<object, string>()
async function freshPath(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'vr-store-contract-'))
  directories.push(directory)
  return join(directory, 'reviews.json')
}

reviewStoreContract('createJsonFileReviewStore', {
  products: async () => {
    const path = await freshPath()
    const store = createJsonFileReviewStore(path, { logger: { warn: () => {} } })
    paths.set(store, path)
    return store
  },
  brands: async () => createJsonFileReviewStore<BrandReview>(await freshPath()),
  reopen: (store) => createJsonFileReviewStore(paths.get(store) ?? ''),
})
