/**
 * The code of a failed connection, from an error and its causes: `ECONNREFUSED`, `ENOTFOUND`,
 * `UND_ERR_SOCKET` (Node's fetch keeps it in `cause`, or in the errors of an `AggregateError` when
 * every address of a host refused). Undefined when no cause carries one. The code of an API answer
 * (an error with a `status`, such as `invalid_parameter`) is no connection code and is passed over.
 */
export function connectionCode(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const { code, errors, cause, status } = current as {
      code?: unknown
      errors?: unknown
      cause?: unknown
      status?: unknown
    }
    if (typeof code === 'string' && status === undefined && /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(code))
      return code
    current = cause ?? (Array.isArray(errors) ? errors[0] : undefined)
  }
  return undefined
}
