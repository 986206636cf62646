import type { StructuredData } from '../../types/published.ts'
import { readStructuredDataBlock, type StructuredDataBlock } from './structured-data.ts'
import { StructuredDataError } from './structured-data-error.ts'

const SCRIPT_ELEMENT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi
const ATTRIBUTE = /([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g

/** Script ids end in the block they carry, after a prefix of the provider's choice (`svc-`, `vr-`). */
const BLOCK_BY_ID_SUFFIX: Readonly<Record<string, StructuredDataBlock>> = {
  'jsonld-aggregaterating': 'ratings',
  'jsonld-reviews': 'reviews',
  'jsonld-reviewsummary': 'reviewSummary',
}

function attributesOf(source: string): Map<string, string> {
  const attributes = new Map<string, string>()
  for (const match of source.matchAll(ATTRIBUTE)) {
    const [, name = '', double, single, bare] = match
    attributes.set(name.toLowerCase(), double ?? single ?? bare ?? '')
  }
  return attributes
}

function blockById(id: string): StructuredDataBlock | undefined {
  const suffix = Object.keys(BLOCK_BY_ID_SUFFIX).find((key) => id.toLowerCase().endsWith(key))
  return suffix === undefined ? undefined : BLOCK_BY_ID_SUFFIX[suffix]
}

function blockByContent(value: unknown): StructuredDataBlock | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  if ('aggregateRating' in value) return 'ratings'
  if ('review' in value) return Array.isArray(value.review) ? 'reviews' : 'reviewSummary'
  return undefined
}

/**
 * The blocks of a structured-datas answer given as `text/javascript` (one
 * `<script type="application/ld+json" id="…">` element per block), each parsed with `JSON.parse` and
 * checked, in the same form as the `application/ld+json` answer. Nothing of the text is kept raw: pass
 * the result to `fromStructuredData` and serialize that.
 *
 * @throws StructuredDataError naming the block (its script id, else its position) when a script is not
 * JSON-LD, its JSON is invalid, its content is not a known block, a block comes twice, or text other
 * than whitespace lies outside the script elements.
 */
export function parseStructuredDataScript(text: string): StructuredData {
  const result: StructuredData = {}
  let position = 0
  let index = 0
  for (const match of text.matchAll(SCRIPT_ELEMENT)) {
    index += 1
    const [element, attributeSource = '', content = ''] = match
    if (text.slice(position, match.index).trim() !== '') {
      throw new StructuredDataError(`script #${index}`, 'unexpected text before the script element')
    }
    position = match.index + element.length
    const attributes = attributesOf(attributeSource)
    const label = attributes.get('id') || `script #${index}`
    if (attributes.get('type')?.trim().toLowerCase() !== 'application/ld+json') {
      throw new StructuredDataError(label, 'is not a script of type application/ld+json')
    }
    let value: unknown
    try {
      value = JSON.parse(content)
    } catch (error) {
      throw new StructuredDataError(label, `is not valid JSON (${(error as Error).message})`, {
        cause: error,
      })
    }
    const id = attributes.get('id')
    const block = (id === undefined ? undefined : blockById(id)) ?? blockByContent(value)
    if (block === undefined)
      throw new StructuredDataError(label, 'is not an aggregate rating, reviews or review summary block')
    if (result[block] !== undefined) throw new StructuredDataError(label, `is a second ${block} block`)
    readStructuredDataBlock(result, block, value, label)
  }
  if (text.slice(position).trim() !== '') {
    throw new StructuredDataError(`script #${index + 1}`, 'unexpected text after the last script element')
  }
  return result
}
