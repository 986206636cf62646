import { describe, expect, it } from 'vitest'
import { parseJsonArray, rawJson, releaseRawJson } from './json-items.ts'

const bytes = (text: string) => new TextEncoder().encode(text)
const text = (json: Uint8Array) => new TextDecoder().decode(json)

describe('parseJsonArray', () => {
  it('parses each item of an array as JSON.parse parses the whole', () => {
    const body = JSON.stringify([
      { id: 'a', text: 'Изобщо не е това, "quoted" ] } [ { , \\ end', nested: [{ b: [1, 2] }, {}] },
      'a string, with ] and [',
      12.5e-3,
      null,
      true,
      [],
      { emoji: '😀 \u2028', escaped: '\\"' },
      // Strings that end in backslashes: an even number of them before a quote leaves it closing.
      { one: 'a\\', two: 'b\\\\', quoted: '\\"\\', after: ['c'] },
    ])
    expect(parseJsonArray(bytes(body))).toEqual(JSON.parse(body))
    expect(parseJsonArray(bytes(` \n[ {"a" : 1} ,\t{"b":2}\r\n] \n`))).toEqual([{ a: 1 }, { b: 2 }])
  })

  it('parses an empty array', () => {
    expect(parseJsonArray(bytes('[]'))).toEqual([])
    expect(parseJsonArray(bytes(' [ \n ] '))).toEqual([])
  })

  it('answers undefined for what is not an array of JSON values, for the caller to parse as text', () => {
    for (const body of [
      '',
      '{"a":1}',
      '[1,]',
      '[,1]',
      '[1,,2]',
      '[1 2]',
      '[{"a":1}',
      '[{"a":1}]]',
      '[{"a":1}] x',
      '[{"a":"unterminated]',
      '[{"a":1}}]',
      '[{"a":1]}',
      '\uFEFF[1]',
    ]) {
      expect(parseJsonArray(bytes(body)), body).toBeUndefined()
    }
  })

  it('tells `keep` the JSON of each object item, and releaseRawJson forgets it and frees the body', () => {
    const kept: [unknown, string][] = []
    const body = bytes('[ {"id":"a","t":"é"} , 3, {"id":"b"} ]')
    const items = parseJsonArray(body, (item, json) => {
      kept.push([item, text(json)])
      rawJson.set(item as object, json)
    }) as object[]
    expect(kept).toEqual([
      [{ id: 'a', t: 'é' }, '{"id":"a","t":"é"}'],
      [{ id: 'b' }, '{"id":"b"}'],
    ])
    expect(rawJson.has(items[0] as object)).toBe(true)
    releaseRawJson([items[0] as object, items[2] as object])
    expect(rawJson.has(items[0] as object)).toBe(false)
    expect(body.byteLength).toBe(0)
  })
})
