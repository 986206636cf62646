'use client'

import type { PurchaseEventSubmission } from '@verified-reviews/next'
import { useActionState } from 'react'

export interface CheckoutTexts {
  product: string
  firstName: string
  lastName: string
  email: string
  price: string
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

/** The checkout form: works without JavaScript (a plain POST to the Server Action), and in place with it. */
export function CheckoutForm(props: {
  action: Action
  locale: string
  products: ReadonlyArray<{ id: string; name: string }>
  texts: CheckoutTexts
}) {
  const [state, formAction, pending] = useActionState(props.action, null)
  const { texts } = props
  const created = state?.created[0]
  return (
    <form action={formAction} className="checkout">
      <input type="hidden" name="consumer.language" value={props.locale} />
      <p className="field">
        <label htmlFor="field-product">{texts.product}</label>
        <select id="field-product" name="products[0].product_ref.sku">
          {props.products.map((product) => (
            <option key={product.id} value={product.id}>
              {product.name}
            </option>
          ))}
        </select>
      </p>
      <Field name="consumer.first_name" label={texts.firstName} errors={state?.errors} required />
      <Field name="consumer.last_name" label={texts.lastName} errors={state?.errors} required />
      <Field name="consumer.email" label={texts.email} type="email" errors={state?.errors} required />
      <Field name="price" label={texts.price} type="number" defaultValue="49.90" errors={state?.errors} />
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
            : Object.keys(state.errors).length > 0
              ? texts.fixFields
              : (state.message ?? texts.orderFailed)}
      </p>
    </form>
  )
}
