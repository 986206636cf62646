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
parentPort.on('message', ({ id, input, ends }) => {
  try {
    const bodies = ends.map((end, i) => deflateRawSync(input.subarray(i === 0 ? 0 : ends[i - 1], end), options))
    // Freed now rather than at the worker's next full collection, which its small heap puts off.
    input.buffer.transfer(0)
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

const utf8 = new TextEncoder()

/**
 * The reviews' JSON end to end in one buffer (UTF-8), and where each ends: what the worker is sent, its
 * buffer transferred rather than copied. Sending the reviews as they are would copy, for views into a
 * page's body, that whole body, which the worker's heap then holds until its next full collection.
 */
function pack(items: readonly (string | Uint8Array)[]): { input: Uint8Array<ArrayBuffer>; ends: number[] } {
  let size = 0
  // A string takes at most 3 bytes a UTF-16 unit in UTF-8.
  for (const item of items) size += typeof item === 'string' ? item.length * 3 : item.length
  const input = new Uint8Array(size)
  const ends: number[] = []
  let at = 0
  for (const item of items) {
    if (typeof item === 'string') at += utf8.encodeInto(item, input.subarray(at)).written
    else {
      input.set(item, at)
      at += item.length
    }
    ends.push(at)
  }
  return { input: input.subarray(0, at), ends }
}

/** What the worker answers for one batch. */
type Answer = { id: number; out: Uint8Array; lengths: number[] } | { id: number; error: string }

/** A started worker and the batches it has not answered yet. */
interface Running {
  /** The stored forms, or undefined when the worker stopped for being idle before this batch came. */
  post(items: readonly (string | Uint8Array)[]): Promise<Uint8Array[] | undefined>
}

/**
 * Encodes the reviews a sync stores into their stored form on a worker thread, so that compressing a
 * page of reviews (some 70 µs a review, most of a sync's own time) runs while the calling thread takes
 * in the next page, which a full sync has already asked for. The result is the same bytes as
 * {@link StoredReviewCodec.encode} gives, in the same order.
 *
 * One worker per copy of this module, started on the first batch of {@link WORKER_BATCH} reviews or
 * more, kept for the next ones, and stopped after {@link WORKER_IDLE_MS} without any. It never keeps the
 * process alive: it is referenced only while a batch is under way. Where no worker can start (no
 * `node:worker_threads`, a permission model that forbids threads) or the worker fails, this encodes on
 * the calling thread from then on, and says nothing: the stored bytes are the same either way.
 */
export function workerEncoder(
  codec: StoredReviewCodec,
): (jsons: readonly (string | Uint8Array)[]) => Promise<Uint8Array[]> {
  return async (jsons) => {
    const inline = () => jsons.map((json) => codec.encode(json))
    if (jsons.length < WORKER_BATCH || state.failed) return inline()
    for (;;) {
      state.running ??= start()
      const running = await state.running
      if (running === undefined) return inline()
      const stored = await running.post(jsons).catch(() => {
        state.failed = true
        return inline()
      })
      // Undefined: that worker stopped, idle, as this batch came; the next one starts.
      if (stored !== undefined) return stored
    }
  }
}

/**
 * This module's worker: starting or running (until it idles), or failed (never started again). `started`
 * counts the workers started, so that one stopping never forgets a later one.
 */
const state: { running: Promise<Running | undefined> | undefined; failed: boolean; started: number } = {
  running: undefined,
  failed: false,
  started: 0,
}

/**
 * Milliseconds the worker waits for another batch before it stops: a sync's pages come some
 * milliseconds apart, and once the sync is done (a build goes on to render its pages) the thread's
 * memory, some 50 MiB, is given back.
 */
export const WORKER_IDLE_MS = 1000

/**
 * Where this module's worker stands: `'none'` before the first batch that needs it and after it stopped
 * for want of batches, `'running'` while it starts or runs, `'failed'` when batches are encoded on the
 * calling thread because it could not start or failed. For tests and diagnostics.
 */
export function encodingWorkerState(): 'none' | 'running' | 'failed' {
  if (state.failed) return 'failed'
  return state.running === undefined ? 'none' : 'running'
}

async function start(): Promise<Running | undefined> {
  const mine = ++state.started
  /** Forgets this worker, unless a later one took its place (this one stopping as that one starts). */
  const forget = () => {
    if (state.started === mine) state.running = undefined
  }
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
      // A small young generation: the worker's garbage (a stream object and a buffer a review) is
      // collected often, and its heap stays some 50 MiB smaller than with the default.
      resourceLimits: { maxYoungGenerationSizeMb: 1 },
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
  let stopping = false
  let idle: ReturnType<typeof setTimeout> | undefined
  const failAll = (error: Error) => {
    if (!stopping) state.failed = true
    forget()
    for (const { reject } of pending.values()) reject(error)
    pending.clear()
  }
  worker.on('message', (answer: Answer) => {
    const waiting = pending.get(answer.id)
    if (waiting === undefined) return
    pending.delete(answer.id)
    if (pending.size === 0) {
      worker.unref()
      idle = setTimeout(() => {
        // The next batch starts another.
        stopping = true
        forget()
        void worker.terminate()
      }, WORKER_IDLE_MS)
      idle.unref()
    }
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
      if (stopping) return Promise.resolve(undefined)
      clearTimeout(idle)
      return new Promise((resolve, reject) => {
        const id = next++
        pending.set(id, { resolve, reject })
        worker.ref()
        const { input, ends } = pack(items)
        worker.postMessage({ id, input, ends }, [input.buffer])
      })
    },
  }
}
