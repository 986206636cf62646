// The items of a list answer, parsed from its bytes one at a time. A page of reviews read as one string
// (some 1 MiB, two bytes a character as soon as a review holds a translation) and parsed in one piece
// makes a large string and a tree that outlive many young-generation collections during a long sync;
// items parsed one by one leave only their own small strings behind.

/**
 * What a sync asks of a list call (a symbol key of its request options): keep each item's JSON, as the
 * API sent it, in {@link rawJson}, so that a store writes it without making it again.
 */
export const KEEP_RAW_JSON: unique symbol = Symbol('verified-reviews.keepRawJson')

/**
 * The JSON bytes of the items of pages asked for with {@link KEEP_RAW_JSON}, by item: a view into the
 * page's body, kept as long as the item is. Only for items nobody changed since the page was parsed.
 */
export const rawJson = new WeakMap<object, Uint8Array>()

const decoder = new TextDecoder()

/**
 * Forgets the JSON kept for `items` and frees the bodies it was read from at once (no other use is made
 * of them once their items are stored): left to the garbage collector, whose young generation sees
 * little else, many pages' worth of bodies would wait outside the heap for a full collection.
 */
export function releaseRawJson(items: readonly object[]): void {
  const views: Uint8Array[] = []
  for (const item of items) {
    const json = rawJson.get(item)
    if (json === undefined) continue
    rawJson.delete(item)
    views.push(json)
  }
  releaseAll(views)
}

/** Frees the buffers of `views`, each once (views of one buffer are often neighbours), which nothing else may use any more. */
export function releaseAll(views: readonly Uint8Array[]): void {
  let last: ArrayBufferLike | undefined
  for (const view of views) {
    if (view.buffer === last) continue
    last = view.buffer
    release(view)
  }
}

/** Frees the buffer of `bytes` (where the runtime can), which nothing else may use any more. */
export function release(bytes: Uint8Array): void {
  const buffer = bytes.buffer as ArrayBufferLike & { transfer?: (length: number) => ArrayBuffer }
  // A SharedArrayBuffer has no `transfer`; neither has an older runtime's ArrayBuffer.
  if (typeof buffer.transfer === 'function') buffer.transfer(0)
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d

/** Whether `byte` is JSON white space: a space, a line feed, a carriage return or a tab. */
function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09
}

/**
 * The items of a JSON array body, each parsed on its own (and told to `keep` with its bytes), or
 * undefined when `bytes` is not an array of JSON values: the caller then parses the body as text, which
 * names what is wrong.
 */
export function parseJsonArray(
  bytes: Uint8Array,
  keep?: (item: unknown, json: Uint8Array) => void,
): unknown[] | undefined {
  let at = 0
  while (isSpace(bytes[at])) at++
  if (bytes[at] !== OPEN_ARRAY) return undefined
  const items: unknown[] = []
  const take = (start: number, end: number): boolean => {
    while (isSpace(bytes[start])) start++
    while (end > start && isSpace(bytes[end - 1])) end--
    if (start === end) return false
    const json = bytes.subarray(start, end)
    let item: unknown
    try {
      item = JSON.parse(decoder.decode(json))
    } catch {
      return false
    }
    items.push(item)
    if (keep !== undefined && typeof item === 'object' && item !== null) keep(item, json)
    return true
  }
  let start = at + 1
  let depth = 0
  for (let i = start; i < bytes.length; i++) {
    const byte = bytes[i]
    if (byte === QUOTE) {
      i = closingQuote(bytes, i)
      if (i === -1) return undefined
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      depth++
    } else if (byte === CLOSE_OBJECT || (byte === CLOSE_ARRAY && depth > 0)) {
      depth--
      if (depth < 0) return undefined
    } else if (byte === COMMA && depth === 0) {
      if (!take(start, i)) return undefined
      start = i + 1
    } else if (byte === CLOSE_ARRAY) {
      // The end of the array: its last item (none in `[]`), then nothing but white space.
      if (!take(start, i) && (items.length > 0 || !isBlank(bytes, start, i))) return undefined
      return isBlank(bytes, i + 1, bytes.length) ? items : undefined
    }
  }
  return undefined
}

/**
 * The index of the quote that closes the string opened at `open`, or -1 when none does. Found by
 * `indexOf` (the strings, review texts, are most of a page's bytes): a quote is escaped by an odd
 * number of backslashes before it.
 */
function closingQuote(bytes: Uint8Array, open: number): number {
  let at = open
  for (;;) {
    at = bytes.indexOf(QUOTE, at + 1)
    if (at === -1) return -1
    let slashes = 0
    while (bytes[at - 1 - slashes] === BACKSLASH) slashes++
    if (slashes % 2 === 0) return at
  }
}

function isBlank(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isSpace(bytes[i])) return false
  return true
}
