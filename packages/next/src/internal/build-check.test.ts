import { APIConnectionError } from '@verified-reviews/core'
import { DynamicServerError } from 'next/dist/client/components/hooks-server-context.js'
import { describe, expect, it } from 'vitest'
import { problemOf } from './build-check.ts'

describe('problemOf', () => {
  it('tells an ISR page turned dynamic by an uncached request what to add, through the errors that wrap it', () => {
    const dynamic = Object.assign(new Error('Dynamic server usage: Route /products/[id] …'), {
      digest: 'DYNAMIC_SERVER_USAGE',
    })
    const wrapped = new APIConnectionError('Connecting to published-token failed', {
      url: 'http://127.0.0.1:4010/token',
      source: 'published-token',
      cause: dynamic,
    })
    expect(problemOf(wrapped)).toEqual({
      kind: 'failed',
      message: expect.stringMatching(
        /add `export const dynamic = 'force-static'` beside `export const revalidate`/,
      ),
    })
  })

  // `turnedDynamic` reads the digest of Next.js's own error, which Next.js does not export: this fails on
  // a Next.js release that names it otherwise.
  it('recognises the error Next.js throws when a static render turns dynamic (its DynamicServerError)', () => {
    expect(problemOf(new DynamicServerError('Route /products/[id] used headers()'))).toEqual({
      kind: 'failed',
      message: expect.stringMatching(/add `export const dynamic = 'force-static'`/),
    })
  })
})
