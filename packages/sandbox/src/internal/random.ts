/**
 * A small seeded pseudo-random generator (sfc32), so that one seed always yields the same data.
 * Independent streams are derived from the seed and a label, so adding draws to one stream never
 * shifts the values of another.
 */
export class Random {
  #a: number
  #b: number
  #c: number
  #d: number

  constructor(seed: number | string, label = '') {
    const [a, b, c, d] = hashToWords(`${seed}\u0000${label}`)
    this.#a = a
    this.#b = b
    this.#c = c
    this.#d = d
    // The first outputs of sfc32 are weakly mixed; discard them as its authors recommend.
    for (let i = 0; i < 15; i++) this.uint32()
  }

  /** An unsigned 32-bit integer. */
  uint32(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0
    this.#d = (this.#d + 1) | 0
    this.#a = this.#b ^ (this.#b >>> 9)
    this.#b = (this.#c + (this.#c << 3)) | 0
    this.#c = (this.#c << 21) | (this.#c >>> 11)
    this.#c = (this.#c + t) | 0
    return t >>> 0
  }

  /** A float in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick() needs at least one item')
    return items[Math.floor(this.next() * items.length)] as T
  }

  /** One item, each chosen with a probability proportional to its weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0
    for (const [, weight] of entries) total += weight
    if (!(total > 0)) throw new RangeError('weighted() needs a positive total weight')
    let roll = this.next() * total
    for (const [item, weight] of entries) {
      roll -= weight
      if (roll < 0) return item
    }
    return (entries[entries.length - 1] as readonly [T, number])[0]
  }

  /** A new array with the items in random order (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice()
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1))
      const tmp = out[i] as T
      out[i] = out[j] as T
      out[j] = tmp
    }
    return out
  }

  /** A string of `length` characters from `alphabet`. */
  string(length: number, alphabet: string): string {
    let out = ''
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)]
    return out
  }

  /** A version 4 uuid (RFC 9562 layout) drawn from this stream. */
  uuid(): string {
    const bytes = new Uint8Array(16)
    for (let i = 0; i < 16; i += 4) {
      const word = this.uint32()
      bytes[i] = word >>> 24
      bytes[i + 1] = (word >>> 16) & 0xff
      bytes[i + 2] = (word >>> 8) & 0xff
      bytes[i + 3] = word & 0xff
    }
    bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40
    bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
  }
}

/** cyrb128: four well-mixed 32-bit words from a string, to seed sfc32. */
function hashToWords(text: string): [number, number, number, number] {
  let h1 = 1779033703
  let h2 = 3144134277
  let h3 = 1013904242
  let h4 = 2773480762
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i)
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067)
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233)
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213)
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179)
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067)
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233)
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213)
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179)
  h1 ^= h2 ^ h3 ^ h4
  h2 ^= h1
  h3 ^= h1
  h4 ^= h1
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0]
}
