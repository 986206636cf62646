/** Thrown when an option of the integration or of a loader is wrong; `option` names it. */
export class VerifiedReviewsOptionError extends Error {
  /** The option at fault, as written in the options object (`maxReviews`, `client.timeout`). */
  readonly option: string

  constructor(owner: string, option: string, message: string) {
    super(`${owner}: option "${option}" ${message}`)
    this.name = 'VerifiedReviewsOptionError'
    this.option = option
  }
}
