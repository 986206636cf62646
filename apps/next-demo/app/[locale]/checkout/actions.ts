'use server'

import {
  type PurchaseEventSubmission,
  purchaseEventFromForm,
  submitPurchaseEvent,
} from '@verified-reviews/next'
import { findProduct } from '@/lib/catalogue'
import { createOrder, MAX_QUANTITY, purchaseEventOf } from '@/lib/orders'

const REQUIRED = ['first_name', 'last_name', 'email'] as const

function quantityOf(value: FormDataEntryValue | null): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,2}$/.test(value.trim())) return undefined
  const quantity = Number(value)
  return quantity >= 1 && quantity <= MAX_QUANTITY ? quantity : undefined
}

/**
 * The checkout's Server Action. The form gives only what the shopper chooses and enters: a product of
 * the catalogue and a quantity, their name and e-mail (`purchaseEventFromForm` reads the `consumer.*`
 * fields and nothing else). The order is recorded on the server, priced from the catalogue, with a
 * reference the server makes, and the purchase event is built from that order.
 */
export async function placeOrder(
  _previous: PurchaseEventSubmission | null,
  form: FormData,
): Promise<PurchaseEventSubmission> {
  const shopper = purchaseEventFromForm(form)
  const errors: Record<string, string> = { ...shopper.errors }
  const consumer = shopper.values.consumer ?? {}
  for (const field of REQUIRED) {
    if (consumer[field] === undefined) errors[`consumer.${field}`] ??= 'is required'
  }
  const product = findProduct(String(form.get('product') ?? ''))
  if (product === undefined) errors.product = 'is not a product of the shop'
  const quantity = quantityOf(form.get('quantity'))
  if (quantity === undefined) errors.quantity = `must be a whole number from 1 to ${MAX_QUANTITY}`
  if (product === undefined || quantity === undefined || Object.keys(errors).length > 0) {
    return { ok: false, created: [], errors }
  }

  const order = createOrder({ items: [{ productId: product.id, quantity }], customer: consumer })
  // The answer's message, for the shopper, in the page's language (the form's consumer.language).
  return submitPurchaseEvent(purchaseEventOf(order), { locale: consumer.language ?? 'en' })
}
