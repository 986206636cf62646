import type { ValidationIssueCode } from '../base/errors.ts'
import { type Issues, isIntegerIn, isIsoDate, isObject, isUuid } from '../base/validate.ts'
import { PURCHASE_DATE_FORMS, purchaseDateOf } from './purchase-date.ts'
import { PURCHASE_EVENT_FORM_FIELDS } from './purchase-event-form.ts'

// Members the service documents, per object, read from the fields a form can name (the consumer's two
// privacy flags aside); any other member is refused, so a misspelt one is not lost.
function membersAt(path: string): string[] {
  const prefix = path === '' ? '' : `${path}.`
  const fields = PURCHASE_EVENT_FORM_FIELDS.filter((field) => field.startsWith(prefix))
  return [...new Set(fields.map((field) => field.slice(prefix.length).replace(/[.[].*$/, '')))]
}
const EVENT_MEMBERS = membersAt('')
const CONSUMER_MEMBERS = [...membersAt('consumer'), 'hide_personal_data', 'anonymize_data']
const PRODUCT_MEMBERS = membersAt('products[]')
const PRODUCT_REF_MEMBERS = membersAt('products[].product_ref')
const CHANNEL_MEMBERS = membersAt('sales_channel')
const SOLICITATION_MEMBERS = membersAt('solicitation_parameters')
const CUSTOM_FIELD_MEMBERS = membersAt('custom_fields[]')

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/

/**
 * Checks one purchase event as the service documents it; problems go to `issues` under `events[index].…`.
 * `websiteId`: the website the events go to, which `sales_channel.website_id` must name; undefined when
 * it is not known yet (an outbox records the events before), and the send checks it again.
 */
export function checkPurchaseEvent(
  event: unknown,
  index: number,
  websiteId: string | undefined,
  issues: Issues,
): void {
  // `code`: a problem a shopper can cause by what they type (see ValidationIssue.code).
  const add = (path: string, message: string, code?: ValidationIssueCode) =>
    issues.add(`events[${index}]${path === '' ? '' : `.${path}`}`, message, index, code)
  const text = (value: unknown, path: string, required = false) => {
    if (value === undefined) {
      if (required) add(path, 'is required', 'required')
    } else if (typeof value !== 'string') add(path, 'must be a string')
  }
  const flag = (value: unknown, path: string) => {
    if (value !== undefined && typeof value !== 'boolean') add(path, 'must be true or false')
  }
  const amount = (value: unknown, path: string) => {
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
      add(path, 'must be a number, 0 or more', 'non-negative-number')
    }
  }
  const known = (object: Record<string, unknown>, members: readonly string[], path: string) => {
    for (const key of Object.keys(object)) {
      if (!members.includes(key)) add(path === '' ? key : `${path}.${key}`, 'is not a known member')
    }
  }
  /** The object at `path` (its members checked) or undefined; `missing` is the problem when there is none. */
  const object = (value: unknown, path: string, members: readonly string[], missing?: string) => {
    if (isObject(value)) known(value, members, path)
    else if (value !== undefined) add(path, 'must be an object')
    else if (missing !== undefined) add(path, missing)
    return isObject(value) ? value : undefined
  }
  const customFields = (value: unknown, path: string, nullable: boolean) => {
    if (value === undefined || (nullable && value === null)) return
    if (!Array.isArray(value)) {
      add(path, `must be an array of { label, value, category }${nullable ? ' or null' : ''}`)
      return
    }
    for (const [i, field] of value.entries()) {
      const at = `${path}[${i}]`
      if (!isObject(field)) {
        add(at, 'must be an object { label, value, category }')
        continue
      }
      known(field, CUSTOM_FIELD_MEMBERS, at)
      text(field.label, `${at}.label`, true)
      text(field.value, `${at}.value`, true)
      text(field.category, `${at}.category`)
    }
  }

  if (!isObject(event)) {
    add('', 'must be an object')
    return
  }
  known(event, EVENT_MEMBERS, '')

  const reference = event.purchase_reference
  const length = typeof reference === 'string' ? [...reference].length : 0
  if (typeof reference !== 'string' || reference === '') add('purchase_reference', 'is required', 'required')
  else if (length > 50) add('purchase_reference', `must be 1 to 50 characters, got ${length}`)

  const date = event.purchase_date
  if (date === undefined) add('purchase_date', 'is required', 'required')
  else if (purchaseDateOf(date) === undefined) add('purchase_date', `must be ${PURCHASE_DATE_FORMS}`)

  amount(event.price, 'price')

  const consumer = object(event.consumer, 'consumer', CONSUMER_MEMBERS, 'is required')
  if (consumer !== undefined) {
    for (const key of ['first_name', 'last_name', 'phone', 'courtesy_title', 'language', 'country']) {
      text(consumer[key], `consumer.${key}`)
    }
    const email = consumer.email
    if (email !== undefined && !(typeof email === 'string' && email.length <= 254 && EMAIL.test(email))) {
      add('consumer.email', 'must be an email address', 'email')
    }
    const birthDate = consumer.birth_date
    if (birthDate !== undefined && !(typeof birthDate === 'string' && isIsoDate(birthDate))) {
      add('consumer.birth_date', 'must be a date YYYY-MM-DD', 'date')
    }
    flag(consumer.hide_personal_data, 'consumer.hide_personal_data')
    flag(consumer.anonymize_data, 'consumer.anonymize_data')
    customFields(consumer.custom_fields, 'consumer.custom_fields', false)
  }

  const products = event.products
  if (products !== undefined && products !== null) {
    if (!Array.isArray(products)) add('products', 'must be an array or null')
    else
      for (const [i, item] of products.entries()) {
        const at = `products[${i}]`
        const product = object(item, at, PRODUCT_MEMBERS, 'must be an object')
        if (product === undefined) continue
        const ref = object(product.product_ref, `${at}.product_ref`, PRODUCT_REF_MEMBERS)
        if (ref !== undefined)
          for (const key of PRODUCT_REF_MEMBERS) text(ref[key], `${at}.product_ref.${key}`)
        for (const key of ['name', 'brand', 'category']) text(product[key], `${at}.${key}`)
        amount(product.price, `${at}.price`)
        flag(product.not_received, `${at}.not_received`)
        customFields(product.custom_fields, `${at}.custom_fields`, false)
      }
  }

  const channel = object(event.sales_channel, 'sales_channel', CHANNEL_MEMBERS, 'is required')
  if (channel !== undefined) {
    for (const key of ['channel', 'delivery_type', 'shop_id']) text(channel[key], `sales_channel.${key}`)
    const website = channel.website_id
    if (website !== undefined) {
      if (!isUuid(website)) add('sales_channel.website_id', 'must be a uuid')
      else if (websiteId !== undefined && website.toLowerCase() !== websiteId.toLowerCase()) {
        add('sales_channel.website_id', `must be the website the events are submitted to (${websiteId})`)
      }
    }
  }

  const solicitation = object(event.solicitation_parameters, 'solicitation_parameters', SOLICITATION_MEMBERS)
  if (solicitation !== undefined) {
    for (const key of ['delay', 'delay_product']) {
      const value = solicitation[key]
      if (value !== undefined && !isIntegerIn(value, 0, Number.MAX_SAFE_INTEGER)) {
        add(`solicitation_parameters.${key}`, 'must be an integer, 0 or more')
      }
    }
    text(solicitation.purchase_event_type, 'solicitation_parameters.purchase_event_type')
  }

  customFields(event.custom_fields, 'custom_fields', true)
}
