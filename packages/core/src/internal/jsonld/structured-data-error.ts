import { VerifiedReviewsError } from '../base/errors.ts'

/** Thrown when structured data from the API does not have the expected form. */
export class StructuredDataError extends VerifiedReviewsError {
  override name = 'StructuredDataError'
  /** The block at fault: its script `id`, its position (`script #2`) or its member name (`ratings`). */
  readonly block: string

  constructor(block: string, message: string, options?: { cause?: unknown }) {
    super(`${block}: ${message}`, options)
    this.block = block
  }
}
