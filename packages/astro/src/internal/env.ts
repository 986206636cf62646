import { fileURLToPath } from 'node:url'
import { readEnvironment, type VerifiedReviewsEnvironment } from '@verified-reviews/core'
import { loadEnv } from 'vite'

/** The prefix of the variables read: `loadEnv` returns these and no other. */
const PREFIX = 'VERIFIED_REVIEWS_'

/**
 * The `VERIFIED_REVIEWS_*` settings of a project: Vite's `loadEnv` reads the process environment and the
 * `.env`, `.env.local`, `.env.[mode]` and `.env.[mode].local` files of `root` as Astro reads them for its
 * pages (the process wins over every file, later files over earlier ones, `$NAME` is expanded), and the
 * core's `readEnvironment` checks them (trimmed, blank is unset). Astro gives `.env` values to pages
 * only, not to integrations and content loaders, so both read them through this.
 */
export function projectEnvironment(root: URL, mode: string): VerifiedReviewsEnvironment {
  return readEnvironment(loadEnv(mode, fileURLToPath(root), PREFIX))
}
