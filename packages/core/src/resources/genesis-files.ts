// The Genesis static files as the Genesis client reads them (`genesis.static.brand()`, `.shops()`), and
// the reading of the numbers Genesis writes as text. `@verified-reviews/migrate` reads the same files and
// numbers through `@verified-reviews/core/internal`, so that a file the client accepts is one it accepts.
import { ValidationError } from '../internal/base/errors.ts'
import type { GenesisBrandFile, GenesisShopLine } from '../types/genesis.ts'

/** Parses the Genesis brand file (`infosite.txt`): one line `count;average`. */
export function parseGenesisBrandFile(text: string): GenesisBrandFile {
  const lines = contentLines(text)
  const [line] = lines
  if (line === undefined || lines.length !== 1) {
    throw unreadable(`the brand file must hold one line count;average, found ${lines.length} lines`)
  }
  const cells = line.text.split(';')
  if (cells.length !== 2) throw unreadable(`the brand file line must be count;average, got "${line.text}"`)
  return {
    review_count: genesisCount(cells[0], 'count'),
    average: genesisNumber(cells[1], 'average'),
  }
}

const SHOP_HEADER = ['id_shop', 'name_shop', 'review_number', 'rating', 'certificate_url'] as const

/**
 * Parses the Genesis shop file (`infoshops.txt`): the header `id_shop;name_shop;review_number;rating;certificate_url`
 * (its columns in any order and case), then one line per shop. Blank lines are skipped; a decimal comma is read as a point.
 */
export function parseGenesisShopsFile(text: string): GenesisShopLine[] {
  const [header, ...rows] = contentLines(text)
  if (header === undefined) throw unreadable('the shop file is empty: it must start with its header')
  const columns = header.text.split(';').map((name) => name.trim().toLowerCase())
  const index = Object.fromEntries(SHOP_HEADER.map((name) => [name, columns.indexOf(name)])) as Record<
    (typeof SHOP_HEADER)[number],
    number
  >
  const missing = SHOP_HEADER.filter((name) => index[name] === -1)
  if (missing.length > 0) throw unreadable(`the shop file header lacks ${missing.join(', ')}`)
  return rows.map(({ text: row, number: lineNumber }) => {
    const cells = row.split(';')
    if (cells.length !== columns.length) {
      throw unreadable(
        `line ${lineNumber} of the shop file has ${cells.length} values, expected ${columns.length}`,
      )
    }
    const cell = (name: (typeof SHOP_HEADER)[number]): string => (cells[index[name]] ?? '').trim()
    return {
      id_shop: cell('id_shop'),
      name_shop: cell('name_shop'),
      review_number: genesisCount(cell('review_number'), `review_number on line ${lineNumber}`),
      rating: genesisNumber(cell('rating'), `rating on line ${lineNumber}`),
      certificate_url: cell('certificate_url'),
    }
  })
}

function contentLines(text: string): { text: string; number: number }[] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\r|\n/)
    .map((line, i) => ({ text: line, number: i + 1 }))
    .filter((line) => line.text.trim() !== '')
}

/**
 * A number Genesis writes as text (`"4.6"`, `"4,6"`), trimmed, a decimal comma read as a point; throws a
 * {@link ValidationError} on `text` naming `name` when it is not a finite number.
 */
export function genesisNumber(raw: string | undefined, name: string): number {
  const text = (raw ?? '').trim().replace(',', '.')
  const value = text === '' ? Number.NaN : Number(text)
  if (!Number.isFinite(value)) throw unreadable(`${name} must be a number, got "${raw ?? ''}"`)
  return value
}

/** A count Genesis writes as text: as {@link genesisNumber}, and an integer, 0 or more. */
export function genesisCount(raw: string | undefined, name: string): number {
  const value = genesisNumber(raw, name)
  if (!Number.isInteger(value) || value < 0) throw unreadable(`${name} must be a count, got "${raw ?? ''}"`)
  return value
}

function unreadable(message: string): ValidationError {
  return new ValidationError([{ field: 'text', message }])
}
