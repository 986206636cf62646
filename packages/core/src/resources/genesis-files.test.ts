import { describe, expect, it } from 'vitest'
import { ValidationError } from '../internal/base/errors.ts'
import { genesisCount, genesisNumber, parseGenesisBrandFile, parseGenesisShopsFile } from './genesis-files.ts'

describe('parseGenesisBrandFile', () => {
  it('reads count and average', () => {
    expect(parseGenesisBrandFile('500;4.27\n')).toEqual({ review_count: 500, average: 4.27 })
  })

  it('reads a decimal comma and Windows line endings', () => {
    expect(parseGenesisBrandFile('\uFEFF12;3,5\r\n')).toEqual({ review_count: 12, average: 3.5 })
  })

  it('refuses a file that is not one count;average line', () => {
    expect(() => parseGenesisBrandFile('')).toThrow(ValidationError)
    expect(() => parseGenesisBrandFile('1;2;3')).toThrow(ValidationError)
    expect(() => parseGenesisBrandFile('many;4.1')).toThrow(/count/)
  })
})

describe('parseGenesisShopsFile', () => {
  const file =
    'id_shop;name_shop;review_number;rating;certificate_url\n' +
    'shop-1;Paris Opéra;120;4.51;https://example.test/cert/shop-1\n' +
    '\n' +
    'shop-2;Lyon;0;0;https://example.test/cert/shop-2\n'

  it('reads one entry per shop line, skipping blank lines', () => {
    expect(parseGenesisShopsFile(file)).toEqual([
      {
        id_shop: 'shop-1',
        name_shop: 'Paris Opéra',
        review_number: 120,
        rating: 4.51,
        certificate_url: 'https://example.test/cert/shop-1',
      },
      {
        id_shop: 'shop-2',
        name_shop: 'Lyon',
        review_number: 0,
        rating: 0,
        certificate_url: 'https://example.test/cert/shop-2',
      },
    ])
  })

  it('reads the columns by their header names', () => {
    const reordered = 'rating;id_shop;review_number;name_shop;certificate_url\n4.5;s;3;S;u\n'
    expect(parseGenesisShopsFile(reordered)[0]).toMatchObject({ id_shop: 's', rating: 4.5, review_number: 3 })
  })

  it('reads the header names in any case, as the client did', () => {
    const shouted = 'ID_SHOP;NAME_SHOP;REVIEW_NUMBER;RATING;CERTIFICATE_URL\ns;S;3;4.5;u\n'
    expect(parseGenesisShopsFile(shouted)[0]).toMatchObject({ id_shop: 's', rating: 4.5, review_number: 3 })
  })

  it('refuses a header that lacks a column', () => {
    expect(() => parseGenesisShopsFile('id_shop;name_shop\n')).toThrow(
      /review_number, rating, certificate_url/,
    )
  })

  it('names the line of a row with the wrong number of values', () => {
    expect(() => parseGenesisShopsFile(`${file}shop-3;x\n`)).toThrow(/line 5/)
  })
})

describe('genesisNumber and genesisCount', () => {
  it('read the numbers Genesis writes as text', () => {
    expect(genesisNumber(' 4,6 ', 'rate')).toBe(4.6)
    expect(genesisCount('12', 'count')).toBe(12)
  })

  it('refuse text that is not a number, and a count that is not a whole number, naming it', () => {
    expect(() => genesisNumber('', 'rate')).toThrow(/rate must be a number/)
    expect(() => genesisCount('1.5', 'count')).toThrow(/count must be a count/)
    expect(() => genesisCount('-1', 'count')).toThrow(ValidationError)
  })
})
