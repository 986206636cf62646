'use server'

import { type PurchaseEventSubmission, submitPurchaseEvent } from '@verified-reviews/next'
import { findProduct } from '@/lib/catalogue'

/**
 * The checkout's Server Action: the form's fields are named after the purchase event's members
 * (`consumer.email`, `products[0].product_ref.sku`…); the order reference and the product's name and
 * identifiers come from the shop's side.
 */
export async function placeOrder(
  _previous: PurchaseEventSubmission | null,
  form: FormData,
): Promise<PurchaseEventSubmission> {
  form.set('purchase_reference', `DEMO-${crypto.randomUUID().slice(0, 13)}`)
  const product = findProduct(String(form.get('products[0].product_ref.sku') ?? ''))
  if (product !== undefined) {
    form.set('products[0].name', product.name)
    form.set('products[0].brand', product.brand)
    form.set('products[0].product_ref.ean', product.gtin13)
  }
  return submitPurchaseEvent(form)
}
