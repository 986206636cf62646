import { APIUserAbortError } from '../../errors.ts'

export function abortError(): APIUserAbortError {
  return new APIUserAbortError('The request was aborted.')
}

/** Waits `ms`, or rejects with {@link APIUserAbortError} as soon as one of the signals aborts. */
export function sleep(ms: number, signals: readonly (AbortSignal | undefined)[]): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const wait = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms)
  })
  return abortable(wait, signals).finally(() => clearTimeout(timer))
}

/** Settles with `promise`, or rejects with {@link APIUserAbortError} as soon as a signal aborts. */
export function abortable<T>(promise: Promise<T>, signals: readonly (AbortSignal | undefined)[]): Promise<T> {
  const live = signals.filter((signal): signal is AbortSignal => signal !== undefined)
  if (live.length === 0) return promise
  return new Promise((resolve, reject) => {
    if (live.some((signal) => signal.aborted)) return reject(abortError())
    const onAbort = () => reject(abortError())
    for (const signal of live) signal.addEventListener('abort', onAbort, { once: true })
    const done = () => {
      for (const signal of live) signal.removeEventListener('abort', onAbort)
    }
    promise.then(
      (value) => {
        done()
        resolve(value)
      },
      (error: unknown) => {
        done()
        reject(error)
      },
    )
  })
}
