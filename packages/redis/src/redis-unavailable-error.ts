import { VerifiedReviewsError } from '@verified-reviews/core'

/**
 * Redis did not answer: the connection is down, refused, or a command took longer than
 * `commandTimeout`. The stores of this package answer it with their local fallback where they have
 * one (cache, token, rate budget, single-flight); the review store and the outbox throw it.
 */
export class RedisUnavailableError extends VerifiedReviewsError {
  override name = 'RedisUnavailableError'
}
