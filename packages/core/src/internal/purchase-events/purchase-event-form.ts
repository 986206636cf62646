import type {
  Consumer,
  CustomField,
  PurchasedProduct,
  SalesChannel,
  SolicitationParameters,
} from '../../types/purchase-events.ts'
import { ValidationError, type ValidationIssueCode } from '../base/errors.ts'
import { fieldErrorIn } from '../i18n/field-errors.ts'

/**
 * Every field a purchase event form can name, dotted, with `[]` where an index goes
 * (`products[0].product_ref.sku` is `products[].product_ref.sku`).
 */
export const PURCHASE_EVENT_FORM_FIELDS = [
  'purchase_reference',
  'purchase_date',
  'price',
  'consumer.first_name',
  'consumer.last_name',
  'consumer.birth_date',
  'consumer.email',
  'consumer.phone',
  'consumer.courtesy_title',
  'consumer.language',
  'consumer.country',
  'consumer.custom_fields[].label',
  'consumer.custom_fields[].value',
  'consumer.custom_fields[].category',
  'products[].product_ref.ean',
  'products[].product_ref.sku',
  'products[].product_ref.upc',
  'products[].product_ref.isbn',
  'products[].product_ref.jan',
  'products[].product_ref.mpn',
  'products[].product_ref.reference',
  'products[].name',
  'products[].brand',
  'products[].price',
  'products[].not_received',
  'products[].category',
  'products[].custom_fields[].label',
  'products[].custom_fields[].value',
  'products[].custom_fields[].category',
  'sales_channel.channel',
  'sales_channel.delivery_type',
  'sales_channel.website_id',
  'sales_channel.shop_id',
  'solicitation_parameters.delay',
  'solicitation_parameters.delay_product',
  'solicitation_parameters.purchase_event_type',
  'custom_fields[].label',
  'custom_fields[].value',
  'custom_fields[].category',
] as const

/** A field of a purchase event form: one of {@link PURCHASE_EVENT_FORM_FIELDS}. */
export type PurchaseEventFormField = (typeof PURCHASE_EVENT_FORM_FIELDS)[number]

/**
 * What a shopper enters at checkout, the only fields {@link purchaseEventFromForm} reads unless told
 * otherwise: their name, e-mail, phone, title, birth date, language and country. The order itself
 * (reference, date, products, prices, channel) is the shop's to say, from its own records.
 */
export const SHOPPER_FORM_FIELDS = [
  'consumer.first_name',
  'consumer.last_name',
  'consumer.email',
  'consumer.phone',
  'consumer.courtesy_title',
  'consumer.birth_date',
  'consumer.language',
  'consumer.country',
] as const satisfies readonly PurchaseEventFormField[]

/** What a form gave, shaped as a purchase event: only the fields read, none of the event's members required. */
export interface PurchaseEventFormValues {
  purchase_reference?: string
  purchase_date?: string
  price?: number
  consumer?: Consumer
  products?: PurchasedProduct[]
  sales_channel?: Partial<SalesChannel>
  solicitation_parameters?: SolicitationParameters
  custom_fields?: CustomField[]
}

/** Options of {@link purchaseEventFromForm}. */
export interface PurchaseEventFormOptions {
  /**
   * The fields the form may fill. Widen it only to fields the shopper may truly choose: a form is
   * written by whoever sends it, so a price, a product or an order reference read from one is forgeable.
   * @default SHOPPER_FORM_FIELDS (the consumer's own fields)
   */
  fields?: readonly PurchaseEventFormField[]
  /**
   * The fields the shopper must fill (`consumer.email`…), among `fields` and without an index: one left
   * empty or out is an error, `is required` in the shopper's language.
   * @default [] (none)
   */
  required?: readonly PurchaseEventFormField[]
  /**
   * The language of the errors a shopper can cause (a required field left empty, a number that is not
   * one, a custom field without its label or value): a language tag, resolved to the closest of the
   * 13 of the review components (`fr-BE` gives French), English when none is close. The others (a
   * field the form may not fill, a name that is no member, a file, a field given twice, indexes with
   * gaps) are the form's or a forger's doing, and stay in English.
   * @default the `consumer.language` the form gave, else English
   */
  locale?: string
}

/** What {@link purchaseEventFromForm} read. */
export interface PurchaseEventFormReading {
  /** The values of the fields read, shaped as a purchase event; use them only when `errors` is empty. */
  values: PurchaseEventFormValues
  /**
   * What is wrong, by form field name (`consumer.email`); empty when nothing is. In the language of the
   * `locale` option for what a shopper can cause, else in English.
   */
  errors: Record<string, string>
}

// Top-level members of a purchase event: a form name starting with one of them is read or refused,
// any other name is the shop's own field and left alone.
const MEMBERS = new Set(PURCHASE_EVENT_FORM_FIELDS.map((field) => /^[a-z_]+/.exec(field)?.[0]))
const KNOWN: ReadonlySet<string> = new Set(PURCHASE_EVENT_FORM_FIELDS)
const NUMBERS = new Set([
  'price',
  'products[].price',
  'solicitation_parameters.delay',
  'solicitation_parameters.delay_product',
])
const BOOLEANS = new Set(['products[].not_received'])
// Names that would reach an object's prototype if they became keys.
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype'])
const NOT_A_MEMBER = 'is not a member of a purchase event'
/** A problem with a field; `code` for one a shopper can cause, said in their language. */
interface Problem {
  message: string
  code?: ValidationIssueCode
}
const REQUIRED: Problem = { message: 'is required', code: 'required' }
// Dotted members, each with an optional index (`products[0].product_ref.sku`).
const NAME = /^[a-z_]{1,40}(?:\[\d{1,2}\])?(?:\.[a-z_]{1,40}(?:\[\d{1,2}\])?)*$/

type Step = string | number
type Node = { [key: string]: unknown }

function set(tree: Node, steps: readonly Step[], value: unknown): void {
  let node = tree as Record<Step, unknown>
  for (const [index, step] of steps.slice(0, -1).entries()) {
    // Objects without a prototype: even a key that slipped through could not reach Object.prototype.
    node[step] ??= typeof steps[index + 1] === 'number' ? [] : Object.create(null)
    node = node[step] as Record<Step, unknown>
  }
  node[steps.at(-1) as Step] = value
}

const CUSTOM_FIELD = /custom_fields\[\d+\]$/

/**
 * Plain objects and arrays from the tree, refusing arrays with gaps (`products[1]` without `products[0]`)
 * and custom fields without a label or a value.
 */
function plain(value: unknown, path: string, errors: Map<string, Problem>): unknown {
  if (Array.isArray(value)) {
    // findIndex visits the holes too.
    const gap = value.findIndex((_, index) => !Object.hasOwn(value, index))
    const items = (gap === -1 ? value : value.slice(0, gap)).map((item, index) =>
      plain(item, `${path}[${index}]`, errors),
    )
    if (gap !== -1) {
      errors.set(`${path}[${gap}]`, { message: 'is missing: number the fields from 0 without gaps' })
    }
    return items
  }
  if (typeof value === 'object' && value !== null) {
    if (CUSTOM_FIELD.test(path)) {
      for (const member of ['label', 'value']) {
        if (!Object.hasOwn(value, member)) errors.set(`${path}.${member}`, REQUIRED)
      }
    }
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => [
        key,
        plain(member, path === '' ? key : `${path}.${key}`, errors),
      ]),
    )
  }
  return value
}

/**
 * Reads the fields of a purchase event from a form (`FormData` of a Server or Astro Action, or
 * `URLSearchParams`), only those allowed: by default the shopper's own ({@link SHOPPER_FORM_FIELDS}).
 * Build the rest on the server from the confirmed order: anyone can send any form.
 *
 * Names are the event's members, dotted, with array indexes (`products[0].product_ref.sku`). Empty
 * fields are left out; prices and delays become numbers (a decimal comma is accepted), `not_received` a
 * boolean (`on` or `true`). Refused in `errors`, by name: a member not in `fields`, a name that is no
 * member (or holds `__proto__`, `constructor`, `prototype`), a field given twice, a file, a number that
 * is not one, indexes with gaps, a `required` field left empty. Names that start like no member
 * (`$ACTION_…`) are ignored. What a shopper can cause is said in their language (see `locale`).
 *
 * @example
 * const { values, errors } = purchaseEventFromForm(form, { required: ['consumer.email'] })
 * const event = { ...eventOfOrder(order), consumer: { ...values.consumer, ...order.consumer } }
 *
 * @throws ValidationError when `options.fields` names a field no purchase event form has, or
 * `options.required` one that is not in `fields` or has an index.
 */
export function purchaseEventFromForm(
  form: FormData | URLSearchParams,
  options: PurchaseEventFormOptions = {},
): PurchaseEventFormReading {
  const allowed: ReadonlySet<string> = new Set(options.fields ?? SHOPPER_FORM_FIELDS)
  const unknown = [...allowed].filter((field) => !KNOWN.has(field))
  if (unknown.length > 0) {
    throw new ValidationError([
      { field: 'fields', message: `${unknown.join(', ')} is no field of a purchase event form` },
    ])
  }
  const required = options.required ?? []
  const unreadable = required.filter((field) => !allowed.has(field) || field.includes('[]'))
  if (unreadable.length > 0) {
    throw new ValidationError([
      {
        field: 'required',
        message: `${unreadable.join(', ')} is not a field the form may fill (see fields), or has an index`,
      },
    ])
  }

  const tree: Node = Object.create(null)
  const errors = new Map<string, Problem>()
  const seen = new Set<string>()
  /** Reads one field into `tree`; answers what is wrong with it, if anything. */
  const read = (name: string, raw: unknown): Problem | string | undefined => {
    if (name.split(/[.[\]]/).some((part) => FORBIDDEN.has(part.toLowerCase()))) return NOT_A_MEMBER
    if (!MEMBERS.has(/^[a-z_]+/.exec(name)?.[0])) return undefined
    // The field's pattern (`products[].name`) and the steps to its value (`products`, 0, `name`).
    const pattern = name.replace(/\[\d+\]/g, '[]')
    if (!NAME.test(name) || !KNOWN.has(pattern)) return NOT_A_MEMBER
    const steps = [...name.matchAll(/([a-z_]+)|\[(\d+)\]/g)].map((match) => match[1] ?? Number(match[2]))
    if (!allowed.has(pattern)) {
      return 'is not read from the form: the shop sets it on the server, from the order'
    }
    if (typeof raw !== 'string') return 'must be text, not a file'
    const key = steps.join('.')
    if (seen.has(key)) return 'is given more than once'
    seen.add(key)
    const text = raw.trim()
    if (text === '') return undefined
    if (NUMBERS.has(pattern)) {
      const number = Number(text.replace(',', '.'))
      if (!Number.isFinite(number)) return { message: 'must be a number', code: 'number' }
      set(tree, steps, number)
    } else set(tree, steps, BOOLEANS.has(pattern) ? text === 'on' || text === 'true' : text)
    return undefined
  }
  for (const [name, raw] of form.entries()) {
    const error = read(name, raw)
    if (error !== undefined) errors.set(name, typeof error === 'string' ? { message: error } : error)
  }
  const values = plain(tree, '', errors) as PurchaseEventFormValues
  for (const field of required) {
    let value: unknown = values
    for (const step of field.split('.')) value = (value as Record<string, unknown> | undefined)?.[step]
    if (value === undefined && !errors.has(field)) errors.set(field, REQUIRED)
  }
  const language = values.consumer?.language
  const locale = options.locale ?? (typeof language === 'string' ? language : 'en')
  return {
    values,
    errors: Object.fromEntries([...errors].map(([name, problem]) => [name, fieldErrorIn(locale, problem)])),
  }
}
