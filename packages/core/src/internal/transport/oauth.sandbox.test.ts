import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'

// Each character RFC 6749 §2.3.1 form-encodes before base64: `+`, `%`, a space, `:`, non-ASCII.
const clientId = 'shop:1 é'
const clientSecret = 'p+ss%20 w:rd-é€'
const genesisSecret = 'g e+n%:ß-€'

const sb = sandboxForFile({ seed: 1, rateLimit: 0, clientId, clientSecret, genesisSecret })

describe('client credentials with +, %, space, : and non-ASCII characters', () => {
  it('get a Published API token and a page with it', async () => {
    const page = await sb.client().products.list({ limit: 1 })
    expect(page.data).toHaveLength(1)
    expect((await sb.stats()).operations['token.published']).toBe(1)
  })

  it('get a purchase events token and submit an event with it', async () => {
    const [result] = await sb.client().purchaseEvents.submit({
      events: [
        {
          purchase_reference: 'ORDER-1',
          purchase_date: '2026-03-01T10:00:00Z',
          consumer: { email: 'ada@example.com' },
          sales_channel: { channel: 'online' },
        },
      ],
    })
    expect(result?.status).toBe('created')
    expect((await sb.stats()).operations['token.purchase-events']).toBe(1)
  })

  it('derive the Genesis token the API expects from such a Genesis secret', async () => {
    const answer = await sb.client().genesis.website.get({ range: 1 })
    expect(answer.reviews).toHaveLength(1)
  })
})
