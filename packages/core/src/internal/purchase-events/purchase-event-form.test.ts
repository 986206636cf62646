import { describe, expect, it } from 'vitest'
import { ValidationError } from '../base/errors.ts'
import { PURCHASE_EVENT_FORM_FIELDS, purchaseEventFromForm } from './purchase-event-form.ts'

function form(fields: ReadonlyArray<readonly [string, string | Blob]>): FormData {
  const data = new FormData()
  for (const [name, value] of fields) data.append(name, value)
  return data
}

const SHOPPER = [
  ['consumer.first_name', ' Ada '],
  ['consumer.last_name', 'Lovelace'],
  ['consumer.email', 'ada@example.com'],
  ['consumer.language', 'en'],
] as const

describe('purchaseEventFromForm', () => {
  it("reads the shopper's own fields, trimmed", () => {
    expect(purchaseEventFromForm(form(SHOPPER))).toEqual({
      values: {
        consumer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', language: 'en' },
      },
      errors: {},
    })
  })

  it('refuses by default what the shop must set from the order: reference, price, products', () => {
    const { values, errors } = purchaseEventFromForm(
      form([
        ...SHOPPER,
        ['purchase_reference', 'ORDER-1'],
        ['price', '0.01'],
        ['products[0].product_ref.sku', 'SKU-001'],
        ['products[0].price', '0'],
        ['sales_channel.channel', 'offline'],
      ]),
    )
    expect(Object.keys(errors)).toEqual([
      'purchase_reference',
      'price',
      'products[0].product_ref.sku',
      'products[0].price',
      'sales_channel.channel',
    ])
    expect(errors.price).toBe('is not read from the form: the shop sets it on the server, from the order')
    expect(Object.keys(values)).toEqual(['consumer'])
  })

  it('reads the fields it is told to, with numbers and booleans', () => {
    const { values, errors } = purchaseEventFromForm(
      form([
        ['products[0].product_ref.sku', 'SKU-001'],
        ['products[0].price', '49,90'],
        ['products[0].not_received', 'on'],
        ['products[1].product_ref.sku', 'SKU-002'],
        ['solicitation_parameters.delay', '3'],
      ]),
      {
        fields: [
          'products[].product_ref.sku',
          'products[].price',
          'products[].not_received',
          'solicitation_parameters.delay',
        ],
      },
    )
    expect(errors).toEqual({})
    expect(values).toEqual({
      products: [
        { product_ref: { sku: 'SKU-001' }, price: 49.9, not_received: true },
        { product_ref: { sku: 'SKU-002' } },
      ],
      solicitation_parameters: { delay: 3 },
    })
  })

  it("ignores the shop's own fields and those Next.js adds to Server Action forms", () => {
    const { values, errors } = purchaseEventFromForm(
      form([...SHOPPER, ['product', 'SKU-001'], ['quantity', '2'], ['$ACTION_ID_0123', '']]),
    )
    expect(errors).toEqual({})
    expect(Object.keys(values)).toEqual(['consumer'])
  })

  it('reads URLSearchParams as it reads FormData', () => {
    const params = new URLSearchParams({ 'consumer.email': 'ada@example.com' })
    expect(purchaseEventFromForm(params).values).toEqual({ consumer: { email: 'ada@example.com' } })
  })

  it('leaves empty fields out', () => {
    expect(purchaseEventFromForm(form([['consumer.phone', '  ']])).values).toEqual({})
  })

  it('answers a member that a purchase event does not have by its name', () => {
    const { errors } = purchaseEventFromForm(
      form([
        ['consumer.shoe_size', '42'],
        ['consumer[email]', 'ada@example.com'],
      ]),
    )
    expect(errors).toEqual({
      'consumer.shoe_size': 'is not a member of a purchase event',
      'consumer[email]': 'is not a member of a purchase event',
    })
  })

  it('answers a field given twice', () => {
    const { errors } = purchaseEventFromForm(
      form([
        ['consumer.email', 'ada@example.com'],
        ['consumer.email', 'eve@example.com'],
      ]),
    )
    expect(errors).toEqual({ 'consumer.email': 'is given more than once' })
  })

  it('answers a file where text is expected', () => {
    const { errors } = purchaseEventFromForm(form([['consumer.email', new Blob(['x'])]]))
    expect(errors).toEqual({ 'consumer.email': 'must be text, not a file' })
  })

  it('answers a number that is not one', () => {
    const { errors } = purchaseEventFromForm(form([['price', 'cheap']]), { fields: ['price'] })
    expect(errors).toEqual({ price: 'must be a number' })
  })

  it('answers indexes with gaps by the first missing one', () => {
    const { errors } = purchaseEventFromForm(form([['products[2].name', 'Mug']]), {
      fields: ['products[].name'],
    })
    expect(errors).toEqual({ 'products[0]': 'is missing: number the fields from 0 without gaps' })
  })

  it('answers a custom field without its label or value', () => {
    const { errors } = purchaseEventFromForm(form([['custom_fields[0].value', 'gift']]), {
      fields: ['custom_fields[].label', 'custom_fields[].value'],
    })
    expect(errors).toEqual({ 'custom_fields[0].label': 'is required' })
  })

  it('refuses names that would reach a prototype, even among the fields it may read', () => {
    const { values, errors } = purchaseEventFromForm(
      form([
        ['__proto__.polluted', 'yes'],
        ['consumer.__proto__.polluted', 'yes'],
        ['constructor.prototype.polluted', 'yes'],
        ['products[0].__proto__.polluted', 'yes'],
      ]),
      { fields: PURCHASE_EVENT_FORM_FIELDS },
    )
    expect(Object.keys(errors)).toHaveLength(4)
    expect(values).toEqual({})
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
  })

  it('answers plain objects, which a Server Action can return', () => {
    const { values } = purchaseEventFromForm(form(SHOPPER))
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype)
    expect(Object.getPrototypeOf(values.consumer)).toBe(Object.prototype)
  })

  it('throws a ValidationError naming an option field no purchase event form has', () => {
    expect(() =>
      purchaseEventFromForm(form([]), { fields: ['consumer.shoe_size' as 'consumer.email'] }),
    ).toThrow(ValidationError)
  })
})

describe("purchaseEventFromForm, in the shopper's language", () => {
  it('answers required fields left empty or out, in the language of consumer.language', () => {
    const { errors } = purchaseEventFromForm(
      form([
        ['consumer.first_name', '  '],
        ['consumer.email', 'ada@example.com'],
        ['consumer.language', 'fr'],
      ]),
      { required: ['consumer.first_name', 'consumer.last_name', 'consumer.email'] },
    )
    expect(errors).toEqual({
      'consumer.first_name': 'est obligatoire',
      'consumer.last_name': 'est obligatoire',
    })
  })

  it('answers them in English without a language, and in the locale option’s before the form’s', () => {
    const required = { required: ['consumer.email'] } as const
    expect(purchaseEventFromForm(form([]), required).errors).toEqual({ 'consumer.email': 'is required' })
    const german = form([['consumer.language', 'fr']])
    expect(purchaseEventFromForm(german, { ...required, locale: 'de-CH' }).errors).toEqual({
      'consumer.email': 'ist erforderlich',
    })
  })

  it('answers a number that is not one and a custom field without its value in the language', () => {
    const { errors } = purchaseEventFromForm(
      form([
        ['price', 'beaucoup'],
        ['custom_fields[0].label', 'Gift wrap'],
      ]),
      { fields: ['price', 'custom_fields[].label', 'custom_fields[].value'], locale: 'cs' },
    )
    expect(errors).toEqual({ price: 'musí být číslo', 'custom_fields[0].value': 'je povinné' })
  })

  it('keeps in English what only the form or a forger can cause', () => {
    const { errors } = purchaseEventFromForm(
      form([
        ['consumer.shoe_size', '42'],
        ['price', '10'],
        ['consumer.email', new Blob(['x'])],
        ['consumer.language', 'es'],
      ]),
    )
    expect(errors).toEqual({
      'consumer.shoe_size': 'is not a member of a purchase event',
      price: 'is not read from the form: the shop sets it on the server, from the order',
      'consumer.email': 'must be text, not a file',
    })
  })

  it('refuses a required field the form may not fill, or one with an index', () => {
    expect(() => purchaseEventFromForm(form([]), { required: ['price'] })).toThrow(ValidationError)
    expect(() =>
      purchaseEventFromForm(form([]), {
        fields: ['custom_fields[].value'],
        required: ['custom_fields[].value'],
      }),
    ).toThrow(/^required: custom_fields\[\]\.value is not a field the form may fill/)
  })
})
