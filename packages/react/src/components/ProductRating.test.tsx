// @vitest-environment jsdom
import { formatRating } from '@verified-reviews/core/i18n'
import { describe, expect, it, vi } from 'vitest'
import { sandboxForFile, type TestSandbox } from '../../../../test/fixtures/sandbox.ts'
import { prerenderTree } from '../../../../test/react/render.ts'
import { ProductRating } from './ProductRating.tsx'

let sb: TestSandbox
const ids = (count: number) =>
  Array.from({ length: count }, (_, i) => `SKU-${String(i + 1).padStart(3, '0')}`)

describe('ProductRating', () => {
  sb = sandboxForFile({ rateLimit: 0 })

  it('makes one bulk ratings request for 24 ratings on one page', async () => {
    const client = sb.client()
    await client.products.list({ limit: 1 }) // the token, fetched before counting
    await sb.admin('DELETE', 'stats')
    const body = await prerenderTree(
      <ul>
        {ids(24).map((id) => (
          <li key={id} data-id={id}>
            <ProductRating productId={id} client={client} />
          </li>
        ))}
      </ul>,
    )
    const { operations, total } = await sb.stats()
    expect(operations['products.ratings.list']).toBe(1)
    expect(total).toBe(1)
    expect(body.querySelectorAll('.vr-rating-badge')).toHaveLength(24)
  })

  it('shows each product its own rating', async () => {
    const client = sb.client()
    const expected = await client.products.ratings.list({ type: 'product_variation_id', value: ids(6) })
    const body = await prerenderTree(
      <ul>
        {ids(6).map((id) => (
          <li key={id} data-id={id}>
            <ProductRating productId={id} client={client} />
          </li>
        ))}
      </ul>,
    )
    for (const rating of expected) {
      const label = body
        .querySelector(`[data-id="${rating.product_variation_id}"] [role="img"]`)
        ?.getAttribute('aria-label')
      expect(label).toBe(`${formatRating('en', rating.average)} out of 5, ${rating.count_total} reviews`)
    }
  })

  it('makes one request per 200 products', async () => {
    const client = sb.client()
    await client.products.list({ limit: 1 })
    await sb.admin('DELETE', 'stats')
    await prerenderTree(
      <div>
        {ids(250).map((id) => (
          <ProductRating key={id} productId={id} client={client} />
        ))}
      </div>,
    )
    expect((await sb.stats()).operations['products.ratings.list']).toBe(2)
  })

  it('renders the neutral state for a product without reviews', async () => {
    const products = await sb.client().products.list({ limit: 200 })
    const id = products.data.find((product) => product.ratings.count_total === 0)?.product_variation_id ?? ''
    const body = await prerenderTree(<ProductRating productId={id} client={sb.client()} />)
    expect(body.querySelector('.vr-rating-badge--empty')?.textContent).toBe('No reviews yet')
  })

  it('finds a product by GTIN', async () => {
    const client = sb.client()
    const [rating] = await client.products.ratings.list({ type: 'product_variation_id', value: ['SKU-002'] })
    const body = await prerenderTree(
      <ProductRating productId={rating?.product_ean ?? ''} idType="product_ean" client={client} />,
    )
    expect(body.querySelector('[role="img"]')?.getAttribute('aria-label')).toContain(
      `${rating?.count_total} reviews`,
    )
  })

  it('renders nothing when the bulk call fails, and reports the failure once for the whole page', async () => {
    await sb.faults([{ operation: 'products.ratings.list', status: 500 }])
    const onError = vi.fn()
    const client = sb.client({ maxRetries: 0 })
    const body = await prerenderTree(
      <div>
        {ids(24).map((id) => (
          <ProductRating key={id} productId={id} client={client} onError={onError} />
        ))}
      </div>,
    )
    expect(body.innerHTML).toBe('<div></div>')
    expect(onError).toHaveBeenCalledTimes(1)
    expect(onError.mock.calls[0]?.[1]).toEqual({ component: 'ProductRating' })
  })
})
