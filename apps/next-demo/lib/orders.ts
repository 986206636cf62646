import type { Consumer, PurchaseEventInput } from '@verified-reviews/core'
import { findProduct, type Product } from './catalogue'

/** One line of an order: a product of the catalogue, at its catalogue price. */
export interface OrderLine {
  product: Product
  quantity: number
  /** Euros, from the catalogue when the order was placed. */
  unitPrice: number
}

/** An order as the shop records it when the shopper places it: everything but the customer is the shop's. */
export interface Order {
  /** Made on the server: no shopper chooses it. */
  reference: string
  /** ISO 8601, with seconds and an offset, as purchase events want it. */
  placedAt: string
  lines: readonly OrderLine[]
  /** Euros, the sum of the lines. */
  total: number
  /** What the shopper entered: name, e-mail, language. */
  customer: Consumer
}

/** Most items of one product in one order. */
export const MAX_QUANTITY = 10
// The demo's store lives in memory: the newest orders are kept, so a flood of orders cannot fill it.
const KEPT_ORDERS = 1000

const orders = new Map<string, Order>()

/**
 * Records an order of catalogue products (unknown products and quantities outside 1 to
 * {@link MAX_QUANTITY} are refused with a RangeError): the prices come from the catalogue, the reference
 * and the date from the server.
 */
export function createOrder(request: {
  items: ReadonlyArray<{ productId: string; quantity: number }>
  customer: Consumer
}): Order {
  if (request.items.length === 0) throw new RangeError('an order has at least one product')
  const lines = request.items.map(({ productId, quantity }): OrderLine => {
    const product = findProduct(productId)
    if (product === undefined) throw new RangeError(`${productId} is not a product of the shop`)
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) {
      throw new RangeError(`quantity must be a whole number from 1 to ${MAX_QUANTITY}`)
    }
    return { product, quantity, unitPrice: product.price }
  })
  const cents = lines.reduce((sum, line) => sum + Math.round(line.unitPrice * 100) * line.quantity, 0)
  const order: Order = {
    reference: `DEMO-${crypto.randomUUID().slice(0, 13)}`,
    placedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    lines,
    total: cents / 100,
    customer: { ...request.customer },
  }
  orders.set(order.reference, order)
  for (const reference of orders.keys()) {
    if (orders.size <= KEPT_ORDERS) break
    orders.delete(reference)
  }
  return order
}

/** An order recorded by {@link createOrder}, by its reference. */
export function findOrder(reference: string): Order | undefined {
  return orders.get(reference)
}

/** The purchase event of a recorded order: built from the shop's record, nothing from the shopper's form. */
export function purchaseEventOf(order: Order): PurchaseEventInput {
  return {
    purchase_reference: order.reference,
    purchase_date: order.placedAt,
    price: order.total,
    consumer: order.customer,
    products: order.lines.map(({ product, unitPrice }) => ({
      // The review service matches reviews to products by the shop's product id.
      product_ref: { sku: product.id, ean: product.gtin13 },
      name: product.name,
      brand: product.brand,
      price: unitPrice,
    })),
    sales_channel: { channel: 'online', delivery_type: 'home_delivery' },
  }
}
