import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type HeaderRecorder, startHeaderRecorder } from '../../../../test/fixtures/header-recorder.ts'
import { type Dispatcher, nodeGlobalDispatcher } from './undici-global-dispatcher.ts'

// These fail on a Node.js release whose fetch no longer keeps its dispatcher where undici kept it, or
// whose dispatcher no longer takes the handler its fetch gives: `cacheKeyFetch` would then send the
// token in Next.js's cache keys again (it falls back to sending a read as it is).

let server: HeaderRecorder

beforeAll(async () => {
  server = await startHeaderRecorder('ok')
})

afterAll(() => server.close())

function found(): Dispatcher {
  const dispatcher = nodeGlobalDispatcher()
  if (dispatcher === undefined) {
    throw new Error(
      `Node.js ${process.version} (undici ${process.versions.undici}) keeps no global dispatcher under the symbols undici-global-dispatcher.ts reads`,
    )
  }
  return dispatcher
}

describe('nodeGlobalDispatcher', () => {
  it("is the dispatcher Node.js's fetch sends a request through", async () => {
    const dispatcher = found()
    const own = Object.getOwnPropertyDescriptor(dispatcher, 'dispatch')
    const original = dispatcher.dispatch
    let calls = 0
    dispatcher.dispatch = function (this: Dispatcher, options, handler) {
      calls++
      return original.call(this, options, handler)
    }
    try {
      expect(await (await fetch(`${server.origin}/plain`)).text()).toBe('ok')
    } finally {
      if (own === undefined) delete (dispatcher as Partial<Dispatcher>).dispatch
      else Object.defineProperty(dispatcher, 'dispatch', own)
    }
    expect(calls).toBe(1)
  })

  it('sends a request through a dispatcher of ours over it, given as the dispatcher option of fetch', async () => {
    const base = found()
    const adding: Dispatcher = {
      dispatch: (options, handler) =>
        base.dispatch(
          {
            ...options,
            headers: { ...(options.headers as Record<string, string>), 'x-added': 'below fetch' },
          },
          handler,
        ),
    }
    const answer = await fetch(`${server.origin}/added`, {
      headers: { accept: 'text/plain' },
      dispatcher: adding,
    } as RequestInit)
    expect(await answer.text()).toBe('ok')
    expect(server.received.at(-1)?.['x-added']).toBe('below fetch')
  })
})
