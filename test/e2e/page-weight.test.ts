// The page-weight measure on pages written by hand, so that the demos' figures mean what they say.
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import {
  bytesWithLightStars,
  elementsWithLightStars,
  measurePage,
  nextPayload,
  overBudget,
  STAR_RATING_BYTES,
} from './page-weight.ts'

const star =
  '<span class="vr-star-rating" role="img" aria-label="4.0 out of 5" data-rating="4">' +
  `<svg viewBox="0 0 120 24"><path d="${'M1 2z'.repeat(40)}"></path><svg><path d="M1 2z"></path></svg></svg></span>`
const review =
  '<li><article class="vr-review" data-rate="4"><h3>Ana</h3>' +
  star +
  '<time datetime="2025-03-04T10:20:30Z">March 4, 2025</time><p lang="en">Très bien.</p></article></li>'
const page = `<!DOCTYPE html><html><head><title>T</title></head><body><ol>${review}${review}</ol></body></html>`

describe('measurePage', () => {
  const weight = measurePage(page)

  it('counts bytes in UTF-8 and gzip bytes', () => {
    expect(weight.bytes).toBe(Buffer.byteLength(page))
    expect(weight.gzipBytes).toBe(gzipSync(page).length)
  })

  it('counts the start tags written, not the elements a parser adds', () => {
    // html head title body ol, then per review: li article h3 span svg path svg path time p.
    expect(weight.elements).toBe(5 + 2 * 10)
    expect(measurePage('<p>a</p>').elements).toBe(1)
  })

  it('measures the star ratings whole, and what they would be as one element of 150 B', () => {
    expect(weight.stars).toEqual({
      count: 2,
      bytes: 2 * Buffer.byteLength(star),
      elements: 2 * 5,
      bytesAt150: 2 * STAR_RATING_BYTES,
    })
    expect(elementsWithLightStars(weight)).toBe(5 + 2 * 6)
    expect(bytesWithLightStars(weight)).toBe(
      weight.bytes - 2 * Buffer.byteLength(star) + 2 * STAR_RATING_BYTES,
    )
  })

  it("takes from each review's HTML its texts, as written, and its dates' datetime values", () => {
    const text = Buffer.byteLength('AnaMarch 4, 2025Très bien.') + '2025-03-04T10:20:30Z'.length
    expect(weight.reviews.count).toBe(2)
    expect(weight.reviews.averageMarkup).toBe(Buffer.byteLength(review) - text)
    expect(weight.reviews.averageMarkupStarsAt150).toBe(
      Buffer.byteLength(review) - text - Buffer.byteLength(star) + STAR_RATING_BYTES,
    )
    expect(weight.reviews.textBytes).toBe(2 * text)
  })

  it('says what a page exceeds of its budgets', () => {
    expect(overBudget('astro', weight)).toEqual([])
    const heavy = measurePage(`<div>${'<p>x</p>'.repeat(300)}</div>`)
    expect(overBudget('astro', heavy)).toEqual(['301 elements > 300'])
    expect(overBudget('next', heavy)).toEqual([])
    expect(overBudget('next', measurePage(`<p>${'x'.repeat(70_000)}</p>`))).toEqual(['70,007 B > 70,000 B'])
  })
})

describe('nextPayload', () => {
  it('finds the star ratings serialised in the payload scripts, escaped as the page holds them', () => {
    const element =
      '["$","span",null,{"className":"vr-star-rating","aria-label":"]\\"[","children":["$","svg",null,{"d":"' +
      'M1 2z'.repeat(40) +
      '"}]}]'
    const flight = `1:["$","div",null,{"children":[${element},["$","p",null,{"children":"]\\"["}]]}]\n`
    const script = `<script>self.__next_f.push([1,${JSON.stringify(flight)}])</script>`
    const payload = nextPayload(
      `<html><body><p>a</p>${script}<script>self.__next_f.push([0])</script></body></html>`,
    )
    expect(payload.scripts).toBe(1)
    expect(payload.bytes).toBe(Buffer.byteLength(script))
    expect(payload.stars).toEqual({
      count: 1,
      bytes: JSON.stringify(element).length - 2,
      bytesAt150: STAR_RATING_BYTES,
    })
  })
})
