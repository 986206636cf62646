'use server'

import { t } from '@verified-reviews/core/i18n'
import {
  type PurchaseEventSubmission,
  purchaseEventFromForm,
  submitPurchaseEvent,
} from '@verified-reviews/next'
import { findProduct } from '@/lib/catalogue'
import { createOrder, MAX_QUANTITY, purchaseEventOf } from '@/lib/orders'

const REQUIRED = ['consumer.first_name', 'consumer.last_name', 'consumer.email'] as const

function quantityOf(value: FormDataEntryValue | null): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,2}$/.test(value.trim())) return undefined
  const quantity = Number(value)
  return quantity >= 1 && quantity <= MAX_QUANTITY ? quantity : undefined
}

/**
 * The checkout's Server Action. The form gives only what the shopper chooses and enters: a product of
 * the catalogue and a quantity, their name and e-mail (`purchaseEventFromForm` reads the `consumer.*`
 * fields and nothing else). The order is recorded on the server, priced from the catalogue, with a
 * reference the server makes, and the purchase event is built from that order. The field errors the
 * shopper can cause are in the page's language (the form's `consumer.language`); a product that is not
 * one of the select's can only be forged, and is answered in English.
 */
export async function placeOrder(
  _previous: PurchaseEventSubmission | null,
  form: FormData,
): Promise<PurchaseEventSubmission> {
  const shopper = purchaseEventFromForm(form, { required: REQUIRED })
  const errors: Record<string, string> = { ...shopper.errors }
  const consumer = shopper.values.consumer ?? {}
  const locale = consumer.language ?? 'en'
  const product = findProduct(String(form.get('product') ?? ''))
  if (product === undefined) errors.product = 'is not a product of the shop'
  const quantity = quantityOf(form.get('quantity'))
  if (quantity === undefined) {
    errors.quantity = t(locale, 'fieldWholeNumberRange', { min: 1, max: MAX_QUANTITY })
  }
  if (product === undefined || quantity === undefined || Object.keys(errors).length > 0) {
    return { ok: false, created: [], errors }
  }

  const order = createOrder({ items: [{ productId: product.id, quantity }], customer: consumer })
  // The answer's message and field errors, for the shopper, in the page's language.
  return submitPurchaseEvent(purchaseEventOf(order), { locale })
}
