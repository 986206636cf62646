import { type ClientOptions, createClient, ValidationError } from '@verified-reviews/core'
import { describe, expect, it } from 'vitest'

function refusal(options: unknown): ValidationError {
  try {
    createClient(options as ClientOptions)
  } catch (error) {
    if (error instanceof ValidationError) return error
    throw error
  }
  throw new Error('createClient accepted the options')
}

describe('createClient options', () => {
  it('refuses an option it does not know, naming it and the one meant', () => {
    const error = refusal({ clientID: 'id', clientSecret: 'secret' })
    expect(error.field).toBe('clientID')
    expect(error.message).toMatch(/^clientID: is not an option of createClient \(did you mean clientId\?\)/)
  })

  it('lists the options it knows', () => {
    expect(refusal({ retries: 3 }).message).toContain(
      '; the options are clientId, clientSecret, origin, cursorSecret, publishedUrl,',
    )
    expect(refusal({ retries: 3 }).message).toContain('rateBudget, requestOptions')
  })

  it('guesses the option meant from a near spelling', () => {
    expect(refusal({ maxRetry: 1 }).message).toContain('(did you mean maxRetries?)')
    expect(refusal({ totally: 1 }).message).not.toContain('did you mean')
  })

  it('refuses every unknown option at once', () => {
    expect(refusal({ clientID: 'id', secret: 'x' }).issues.map((issue) => issue.field)).toEqual([
      'clientID',
      'secret',
    ])
  })

  it('refuses an unknown option even when its value is undefined', () => {
    expect(refusal({ clientID: undefined }).field).toBe('clientID')
  })

  it("refuses Object's own names as options", () => {
    expect(refusal(JSON.parse('{"__proto__": {}}')).field).toBe('__proto__')
  })

  it('refuses options that are not an object', () => {
    expect(refusal(null).field).toBe('options')
    expect(refusal('id').field).toBe('options')
  })

  it('takes the options it knows', () => {
    expect(() =>
      createClient({
        clientId: 'id',
        clientSecret: 'secret',
        maxRetries: 1,
        requestOptions: () => undefined,
      }),
    ).not.toThrow()
  })
})
