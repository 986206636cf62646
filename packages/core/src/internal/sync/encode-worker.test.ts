import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { productReview } from '../../../../../test/fixtures/reviews.ts'
import { encodingWorkerState, WORKER_BATCH, WORKER_IDLE_MS, workerEncoder } from './encode-worker.ts'
import { loadStoredReviewCodec } from './stored-review.ts'

const codec = await loadStoredReviewCodec()
const encodeMany = workerEncoder(codec)
const encoder = new TextEncoder()

/** A page of distinct reviews' JSON, as strings and as views into one body (as a sync's page gives them). */
function page(size: number): (string | Uint8Array)[] {
  const texts = Array.from({ length: size }, (_, i) =>
    JSON.stringify(
      productReview({
        review_id: `review-${i}`,
        review_content: `Review ${i}: ${'très bien 👍 '.repeat(i % 7)}`,
        translated_review: { en: `Review ${i} in English`, fr: `Avis ${i}` },
      }),
    ),
  )
  const body = encoder.encode(texts.join(''))
  let at = 0
  return texts.map((text, i) => {
    if (i % 2 === 0) return text
    const length = encoder.encode(text).length
    const start = encoder.encode(texts.slice(0, i).join('')).length
    at = start + length
    return body.subarray(start, at)
  })
}

describe('the encoding worker', () => {
  it('encodes a sync’s page on its thread into the very bytes the codec writes, in order', async () => {
    const jsons = page(WORKER_BATCH + 9)
    expect(encodingWorkerState()).toBe('none')
    const stored = await encodeMany(jsons)
    expect(encodingWorkerState()).toBe('running')
    expect(stored).toHaveLength(jsons.length)
    for (const [i, json] of jsons.entries()) {
      expect(Buffer.from(stored[i] as Uint8Array).equals(Buffer.from(codec.encode(json)))).toBe(true)
      const text = typeof json === 'string' ? json : new TextDecoder().decode(json)
      expect(codec.decode(stored[i] as Uint8Array)).toEqual(JSON.parse(text))
    }
    // Several batches at once are each answered with their own reviews.
    const [a, b] = await Promise.all([encodeMany(jsons.slice(0, WORKER_BATCH)), encodeMany(jsons.slice(9))])
    expect(a.map((bytes) => codec.decode(bytes))).toEqual(
      jsons.slice(0, WORKER_BATCH).map((json) => codec.decode(codec.encode(json))),
    )
    expect(b.map((bytes) => codec.decode(bytes))).toEqual(
      jsons.slice(9).map((json) => codec.decode(codec.encode(json))),
    )
  })

  it('stops the worker once idle, and starts another for the next batch', async () => {
    const jsons = page(WORKER_BATCH)
    await encodeMany(jsons)
    expect(encodingWorkerState()).toBe('running')
    // The moment it stops (its exit comes later), the next batch starts another.
    const until = Date.now() + WORKER_IDLE_MS + 2000
    while (encodingWorkerState() === 'running' && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 2))
    expect(encodingWorkerState()).toBe('none')
    const stored = await encodeMany(jsons)
    expect(encodingWorkerState()).toBe('running')
    expect(stored.map((bytes) => codec.decode(bytes))).toEqual(
      jsons.map((json) => codec.decode(codec.encode(json))),
    )
    // The stopped worker's exit leaves the new one in place.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(encodingWorkerState()).toBe('running')
  })

  it('encodes a small batch on the calling thread, with the same bytes', async () => {
    const jsons = page(3)
    const stored = await encodeMany(jsons)
    expect(stored.map((bytes) => Buffer.from(bytes).toString('hex'))).toEqual(
      jsons.map((json) => Buffer.from(codec.encode(json)).toString('hex')),
    )
  })

  it('never keeps the process alive, and encodes on the calling thread where no thread may start', () => {
    const module = fileURLToPath(new URL('./encode-worker.ts', import.meta.url))
    const codecModule = fileURLToPath(new URL('./stored-review.ts', import.meta.url))
    const program = `
      const { workerEncoder, encodingWorkerState } = await import(${JSON.stringify(module)})
      const { loadStoredReviewCodec } = await import(${JSON.stringify(codecModule)})
      const codec = await loadStoredReviewCodec()
      const jsons = Array.from({ length: 64 }, (_, i) => JSON.stringify({ review_id: 'r' + i, review_content: 'text ' + i }))
      const stored = await workerEncoder(codec)(jsons)
      const same = stored.every((bytes, i) => Buffer.from(bytes).equals(Buffer.from(codec.encode(jsons[i]))))
      console.log(JSON.stringify({ state: encodingWorkerState(), same }))
    `
    const run = (flags: string[]) =>
      JSON.parse(
        execFileSync(process.execPath, [...flags, '--input-type=module', '-e', program], {
          encoding: 'utf8',
          // A worker that kept the process alive would hold it past this.
          timeout: 20_000,
        }),
      ) as { state: string; same: boolean }
    // The child exits by itself once its batch is encoded, the worker idle.
    expect(run([])).toEqual({ state: 'running', same: true })
    // Node's permission model refuses threads without --allow-worker.
    expect(run(['--permission', '--allow-fs-read=*'])).toEqual({ state: 'failed', same: true })
  })
})
