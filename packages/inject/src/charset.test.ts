import { describe, expect, it } from 'vitest'
import { charsetOfContentType, decodeHtmlFile, prescanEncoding } from './charset.ts'

const bytes = (text: string) => new TextEncoder().encode(text)
const latin1 = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0))

describe('prescanEncoding', () => {
  it('reads <meta charset>, its label resolved as the Encoding standard does', () => {
    expect(prescanEncoding(bytes('<!doctype html><html><head><META CHARSET="Latin1">'))).toBe('windows-1252')
  })

  it('reads <meta http-equiv="content-type"> with a charset in its content', () => {
    expect(
      prescanEncoding(bytes(`<meta content='text/html; charset="iso-8859-15"' http-equiv=Content-Type>`)),
    ).toBe('iso-8859-15')
  })

  it('ignores a content charset without the http-equiv pragma', () => {
    expect(prescanEncoding(bytes('<meta content="text/html; charset=windows-1252">'))).toBeUndefined()
  })

  it('skips comments, <!--> included, and the attributes of other tags', () => {
    expect(
      prescanEncoding(
        bytes('<!-- <meta charset="koi8-r"> --><!--><p title="<meta charset=koi8-r>"><meta charset=utf-8>'),
      ),
    ).toBe('utf-8')
  })

  it('takes a declared UTF-16 for UTF-8, as a page read as bytes cannot be UTF-16', () => {
    expect(prescanEncoding(bytes('<meta charset="utf-16le">'))).toBe('utf-8')
  })

  it('ignores unknown labels and looks no further than the first 1024 bytes', () => {
    expect(prescanEncoding(bytes('<meta charset="nonsense">'))).toBeUndefined()
    expect(prescanEncoding(bytes(`${' '.repeat(1024)}<meta charset="windows-1252">`))).toBeUndefined()
  })
})

describe('charsetOfContentType', () => {
  it('finds the charset parameter, quoted or not', () => {
    expect(charsetOfContentType('text/html;charset = "utf-8"')).toBe('utf-8')
    expect(charsetOfContentType('text/html; CHARSET=Shift_JIS; x=y')).toBe('Shift_JIS')
    expect(charsetOfContentType('text/html; charset')).toBeUndefined()
  })
})

describe('decodeHtmlFile', () => {
  it('decodes a UTF-8 page and keeps its byte order mark', () => {
    expect(decodeHtmlFile(bytes('\ufeff<title>été</title>'))).toEqual({
      utf8: true,
      html: '\ufeff<title>été</title>',
    })
  })

  it('refuses a page that declares windows-1252, and decodes its text for reading', () => {
    expect(decodeHtmlFile(latin1('<meta charset="windows-1252"><title>\xe9t\xe9</title>'))).toEqual({
      utf8: false,
      reason: 'the page declares the windows-1252 encoding; only UTF-8 pages are rewritten',
      text: '<meta charset="windows-1252"><title>été</title>',
    })
  })

  it('lets a UTF-8 byte order mark win over a declaration, as browsers do', () => {
    expect(decodeHtmlFile(bytes('\ufeff<meta charset="windows-1252">')).utf8).toBe(true)
  })

  it('refuses UTF-16 pages and pages that are not valid UTF-8', () => {
    expect(decodeHtmlFile(Uint8Array.of(0xff, 0xfe, 0x3c, 0x00))).toMatchObject({
      utf8: false,
      reason: expect.stringContaining('UTF-16LE'),
    })
    expect(decodeHtmlFile(latin1('<title>\xe9t\xe9</title>'))).toMatchObject({
      utf8: false,
      reason: 'the page is not valid UTF-8; only UTF-8 pages are rewritten',
    })
  })
})
