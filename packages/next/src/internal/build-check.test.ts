import { APIConnectionError } from '@verified-reviews/core'
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
})
