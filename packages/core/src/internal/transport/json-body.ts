import { type ErrorSource, InvalidResponseError } from '../base/errors.ts'
import type { Incoming } from './http.ts'
import { parseJsonArray } from './json-items.ts'

/** An {@link InvalidResponseError} about `answer`. */
export function invalidAnswer(answer: Incoming, source: ErrorSource, message: string, cause?: unknown) {
  return new InvalidResponseError(message, {
    status: answer.status,
    headers: answer.headers,
    body: answer.text,
    url: answer.url,
    source,
    cause,
  })
}

/** The JSON body of a successful answer. */
export function jsonOf(answer: Incoming, source: ErrorSource): unknown {
  try {
    return JSON.parse(answer.text)
  } catch (cause) {
    throw invalidAnswer(
      answer,
      source,
      `${source} answered ${answer.status} with a body that is not JSON.`,
      cause,
    )
  }
}

/**
 * The JSON array body of a successful list answer, its items parsed one by one from the bytes when the
 * answer has them (and told to `keep` with their JSON).
 */
export function arrayOf<Item>(
  answer: Incoming,
  source: ErrorSource,
  keep?: (item: unknown, json: Uint8Array) => void,
): Item[] {
  const items = answer.bytes === undefined ? undefined : parseJsonArray(answer.bytes, keep)
  if (items !== undefined) return items as Item[]
  const body = jsonOf(answer, source)
  if (!Array.isArray(body))
    throw invalidAnswer(answer, source, `${source} answered a list operation without an array.`)
  return body as Item[]
}
