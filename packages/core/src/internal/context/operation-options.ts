import type { Operation, OperationCall, OperationParams } from '../../types/operations.ts'
import type { RequestOptions } from '../../types/request-options.ts'
import { ValidationError } from '../base/errors.ts'
import { isObject } from '../base/validate.ts'
import type { ClientContext } from './client-context.ts'

/**
 * `given` laid over `call`: `fetchOptions` and `headers` entry by entry, `cache` setting by setting
 * (unless either turns it off), every other option whole.
 */
export function layOptions(call: RequestOptions | undefined, given: RequestOptions): RequestOptions {
  if (call === undefined) return given
  const laid: RequestOptions = { ...call, ...given }
  if (call.fetchOptions !== undefined && given.fetchOptions !== undefined)
    laid.fetchOptions = { ...call.fetchOptions, ...given.fetchOptions }
  if (call.headers !== undefined && given.headers !== undefined)
    laid.headers = { ...call.headers, ...given.headers }
  if (isObject(call.cache) && isObject(given.cache)) laid.cache = { ...call.cache, ...given.cache }
  return laid
}

/**
 * The options of one call of `operation`: the caller's, with what the client's `requestOptions`
 * hook gives for it laid over them. Called once per call, after its parameters are checked.
 */
export function optionsFor<O extends Operation>(
  context: ClientContext,
  operation: O,
  params: OperationParams[O],
  options: RequestOptions | undefined,
): RequestOptions | undefined {
  const hook = context.requestOptions
  if (hook === undefined) return options
  const given: unknown = hook({ operation, params, options } as OperationCall)
  if (given === undefined) return options
  if (!isObject(given)) {
    throw new ValidationError([
      {
        field: 'requestOptions',
        message: `must return request options or undefined; for ${operation} it returned ${given === null ? 'null' : typeof given}`,
      },
    ])
  }
  return layOptions(options, given as RequestOptions)
}
