import {
  STORED_REVIEW_DICTIONARY_V1,
  STORED_REVIEW_LEVEL,
  STORED_REVIEW_VERSION,
  STORED_REVIEW_WINDOW_BITS,
  type StoredReviewCodec,
} from './stored-review.ts'

/**
 * Batches of fewer reviews than this are encoded on the calling thread: the round trip to the worker
 * (some 0.1 ms) would cost more than it saves.
 */
export const WORKER_BATCH = 32

/**
 * The worker's program, given as source (`eval`) rather than as a file: a bundler that copies this
 * package into a server bundle (Next.js) has no file of ours to lose or rename. It reads Node's modules
 * through `process.getBuiltinModule`, so it runs as a script or a module, whichever the process's
 * `--input-type` makes an evaluated program. It encodes exactly as
 * {@link StoredReviewCodec.encode} does, with the options it is given, and answers each batch with one
 * buffer (transferred, not copied) of the stored forms end to end and their lengths.
 */
const PROGRAM = `
const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads')
const { deflateRawSync } = process.getBuiltinModule('node:zlib')
const options = { level: workerData.level, windowBits: workerData.windowBits, dictionary: Buffer.from(workerData.dictionary) }
parentPort.on('message', ({ id, items }) => {
  try {
    const bodies = items.map((json) => deflateRawSync(json, options))
    let size = 0
    for (const body of bodies) size += body.length + 1
    const out = new Uint8Array(size)
    const lengths = []
    let at = 0
    for (const body of bodies) {
      out[at] = workerData.version
      out.set(body, at + 1)
      at += body.length + 1
      lengths.push(body.length + 1)
    }
    parentPort.postMessage({ id, out, lengths }, [out.buffer])
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) })
  }
})
`

/** What the worker answers for one batch. */
type Answer = { id: number; out: Uint8Array; lengths: number[] } | { id: number; error: string }

/** A started worker and the batches it has not answered yet. */
interface Running {
  post(items: readonly (string | Uint8Array)[]): Promise<Uint8Array[]>
}

/**
 * Encodes the reviews a sync stores into their stored form on a worker thread, so that compressing a
 * page of reviews (some 70 µs a review, most of a sync's own time) runs while the calling thread takes
 * in the next page, which a full sync has already asked for. The result is the same bytes as
 * {@link StoredReviewCodec.encode} gives, in the same order.
 *
 * One worker per copy of this module, started on the first batch of {@link WORKER_BATCH} reviews or
 * more and kept for the next ones. It never keeps the process alive: it is referenced only while a batch
 * is under way. Where no worker can start (no `node:worker_threads`, a permission model that forbids
 * threads) or the worker fails, this encodes on the calling thread from then on, and says nothing: the
 * stored bytes are the same either way.
 */
export function workerEncoder(
  codec: StoredReviewCodec,
): (jsons: readonly (string | Uint8Array)[]) => Promise<Uint8Array[]> {
  return async (jsons) => {
    const inline = () => jsons.map((json) => codec.encode(json))
    if (jsons.length < WORKER_BATCH || state.failed) return inline()
    state.running ??= start()
    const running = await state.running
    if (running === undefined) return inline()
    return running.post(jsons).catch(() => {
      state.failed = true
      return inline()
    })
  }
}

/** This module's worker: starting or started, or failed (never started again). */
const state: { running: Promise<Running | undefined> | undefined; failed: boolean } = {
  running: undefined,
  failed: false,
}

/**
 * Where this module's worker stands: `'none'` before the first batch that needs it, `'started'` once it
 * runs (it has answered a batch, or is starting), `'failed'` when batches are encoded on the calling
 * thread because it could not start or failed. For tests and diagnostics.
 */
export function encodingWorkerState(): 'none' | 'started' | 'failed' {
  if (state.failed) return 'failed'
  return state.running === undefined ? 'none' : 'started'
}

async function start(): Promise<Running | undefined> {
  let threads: typeof import('node:worker_threads')
  try {
    threads = await import('node:worker_threads')
  } catch {
    state.failed = true
    return undefined
  }
  let worker: import('node:worker_threads').Worker
  try {
    worker = new threads.Worker(PROGRAM, {
      eval: true,
      workerData: {
        dictionary: STORED_REVIEW_DICTIONARY_V1,
        version: STORED_REVIEW_VERSION,
        windowBits: STORED_REVIEW_WINDOW_BITS,
        level: STORED_REVIEW_LEVEL,
      },
    })
  } catch {
    state.failed = true
    return undefined
  }
  worker.unref()
  const pending = new Map<
    number,
    { resolve: (stored: Uint8Array[]) => void; reject: (error: Error) => void }
  >()
  let next = 0
  const failAll = (error: Error) => {
    state.failed = true
    state.running = undefined
    for (const { reject } of pending.values()) reject(error)
    pending.clear()
  }
  worker.on('message', (answer: Answer) => {
    const waiting = pending.get(answer.id)
    if (waiting === undefined) return
    pending.delete(answer.id)
    if (pending.size === 0) worker.unref()
    if ('error' in answer) {
      waiting.reject(new Error(answer.error))
      return
    }
    const stored: Uint8Array[] = []
    let at = 0
    for (const length of answer.lengths) {
      stored.push(answer.out.subarray(at, at + length))
      at += length
    }
    waiting.resolve(stored)
  })
  worker.on('error', failAll)
  worker.on('exit', (code) => failAll(new Error(`the encoding worker exited (code ${code})`)))
  return {
    post(items) {
      return new Promise((resolve, reject) => {
        const id = next++
        pending.set(id, { resolve, reject })
        worker.ref()
        worker.postMessage({ id, items })
      })
    },
  }
}
