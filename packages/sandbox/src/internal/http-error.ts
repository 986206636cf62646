/** An error that becomes a JSON error response (`{ status, error, message, field?, errors? }`). */
export class HttpError extends Error {
  readonly status: number
  readonly code: string
  readonly field: string | undefined
  readonly details: unknown
  readonly headers: Record<string, string>
  /** Further members of the JSON body, such as OAuth's `error_description`. */
  readonly extraBody: Record<string, unknown>

  constructor(
    status: number,
    code: string,
    message: string,
    extra: {
      field?: string
      details?: unknown
      headers?: Record<string, string>
      body?: Record<string, unknown>
    } = {},
  ) {
    super(message)
    this.name = 'HttpError'
    this.status = status
    this.code = code
    this.field = extra.field
    this.details = extra.details
    this.headers = extra.headers ?? {}
    this.extraBody = extra.body ?? {}
  }

  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { status: this.status, error: this.code, message: this.message }
    if (this.field !== undefined) body.field = this.field
    if (this.details !== undefined) body.errors = this.details
    return { ...body, ...this.extraBody }
  }
}
