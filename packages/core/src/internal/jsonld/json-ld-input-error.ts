import { VerifiedReviewsError } from '../base/errors.ts'

/** Thrown when a JSON-LD builder receives an option or a combination of options it cannot honour. */
export class JsonLdInputError extends VerifiedReviewsError {
  override name = 'JsonLdInputError'
  /** The option at fault, as a path (`url`, `product.@id`, `selfServingReviews`). */
  readonly field: string

  constructor(field: string, message: string) {
    super(`${field}: ${message}`)
    this.field = field
  }
}
