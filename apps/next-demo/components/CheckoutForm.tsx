'use client'

import type { PurchaseEventSubmission } from '@verified-reviews/next'
import { useActionState } from 'react'

export interface CheckoutTexts {
  product: string
  quantity: string
  firstName: string
  lastName: string
  email: string
  placeOrder: string
  orderSent: string
  orderFailed: string
  fixFields: string
}

type Action = (state: PurchaseEventSubmission | null, form: FormData) => Promise<PurchaseEventSubmission>

function Field(props: {
  name: string
  label: string
  type?: string
  defaultValue?: string
  errors: Record<string, string> | undefined
  required?: boolean
  min?: number
  max?: number
}) {
  const error = props.errors?.[props.name]
  const id = `field-${props.name.replace(/\W+/g, '-')}`
  return (
    <p className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        defaultValue={props.defaultValue}
        required={props.required}
        min={props.min}
        max={props.max}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={error === undefined ? undefined : `${id}-error`}
      />
      {error !== undefined && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </p>
  )
}

/**
 * The checkout form: works without JavaScript (a plain POST to the Server Action), and in place with it.
 * It sends what the shopper chooses and enters, never a price: the server prices the order.
 */
export function CheckoutForm(props: {
  action: Action
  locale: string
  products: ReadonlyArray<{ id: string; name: string; price: number }>
  maxQuantity: number
  texts: CheckoutTexts
}) {
  const [state, formAction, pending] = useActionState(props.action, null)
  const { texts } = props
  const created = state?.created[0]
  const euros = new Intl.NumberFormat(props.locale, { style: 'currency', currency: 'EUR' })
  const productError = state?.errors.product
  return (
    <form action={formAction} className="checkout">
      <input type="hidden" name="consumer.language" value={props.locale} />
      <p className="field">
        <label htmlFor="field-product">{texts.product}</label>
        <select
          id="field-product"
          name="product"
          aria-invalid={productError === undefined ? undefined : true}
          aria-describedby={productError === undefined ? undefined : 'field-product-error'}
        >
          {props.products.map((product) => (
            <option key={product.id} value={product.id}>
              {`${product.name} · ${euros.format(product.price)}`}
            </option>
          ))}
        </select>
        {productError !== undefined && (
          <span id="field-product-error" className="field-error">
            {productError}
          </span>
        )}
      </p>
      <Field
        name="quantity"
        label={texts.quantity}
        type="number"
        defaultValue="1"
        min={1}
        max={props.maxQuantity}
        errors={state?.errors}
        required
      />
      <Field name="consumer.first_name" label={texts.firstName} errors={state?.errors} required />
      <Field name="consumer.last_name" label={texts.lastName} errors={state?.errors} required />
      <Field name="consumer.email" label={texts.email} type="email" errors={state?.errors} required />
      <p>
        <button type="submit" disabled={pending}>
          {texts.placeOrder}
        </button>
      </p>
      <p role="status" className="checkout-status">
        {state === null
          ? null
          : created !== undefined && state.ok
            ? texts.orderSent.replace('{id}', created.id).replace('{status}', created.purchase_event_status)
            : (state.message ?? (Object.keys(state.errors).length > 0 ? texts.fixFields : texts.orderFailed))}
      </p>
    </form>
  )
}
