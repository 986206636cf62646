import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../test/fixtures/sandbox.ts'
import { InternalServerError } from '../internal/base/errors.ts'
import type { PurchaseEventInput } from '../types/purchase-events.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

const event: PurchaseEventInput = {
  purchase_reference: 'ORDER-1',
  purchase_date: '2026-03-01T10:00:00Z',
  consumer: { email: 'ada@example.com' },
  sales_channel: { channel: 'online' },
}

async function submissions(): Promise<number | undefined> {
  return (await sb.stats()).operations['purchase-events.submit']
}

describe('purchaseEvents.submit and retries', () => {
  it('sends a batch once, and throws the 503 it got, when retry is false', async () => {
    await sb.faults([{ operation: 'purchase-events.submit', status: 503, count: 1 }])
    const error = await sb
      .client()
      .purchaseEvents.submit({ events: [event], retry: false })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InternalServerError)
    expect(await submissions()).toBe(1)
  })

  it('sends a batch again after a 503 by default', async () => {
    await sb.faults([{ operation: 'purchase-events.submit', status: 503, count: 1 }])
    const [result] = await sb.client().purchaseEvents.submit({ events: [event] })
    expect(result?.status).toBe('created')
    expect(await submissions()).toBe(2)
  })

  it('refuses a retry that is not true or false, naming it, before sending', async () => {
    const error = await sb
      .client()
      .purchaseEvents.submit({ events: [event], retry: 'no' as unknown as boolean })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'ValidationError', issues: [{ field: 'retry' }] })
    expect(await submissions()).toBeUndefined()
  })
})
