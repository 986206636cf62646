// The page-weight measure on pages written by hand, so that the demos' figures mean what they say.
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { measurePage, nextPayload, overBudget, PAGE_BUDGETS } from './page-weight.ts'

const star = '<span class="vr-stars" role="img" aria-label="4.0 out of 5" data-r="40">4.0/5</span>'
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
    // html head title body ol, then per review: li article h3 span time p.
    expect(weight.elements).toBe(5 + 2 * 6)
    expect(measurePage('<p>a</p>').elements).toBe(1)
  })

  it('measures the star ratings whole, and the largest one', () => {
    const longer = star.replace('4.0 out of 5', '4.0 out of 5, 1,234 reviews')
    expect(weight.stars).toEqual({
      count: 2,
      bytes: 2 * Buffer.byteLength(star),
      largest: Buffer.byteLength(star),
    })
    expect(measurePage(`<p>${star}${longer}</p>`).stars.largest).toBe(Buffer.byteLength(longer))
  })

  it("takes from each review's HTML its texts, as written, and its dates' datetime values", () => {
    // The star rating's text (4.0/5) is text as well: what it costs beyond it is its tag.
    const text = Buffer.byteLength('Ana4.0/5March 4, 2025Très bien.') + '2025-03-04T10:20:30Z'.length
    expect(weight.reviews.count).toBe(2)
    expect(weight.reviews.averageMarkup).toBe(Buffer.byteLength(review) - text)
    expect(weight.reviews.textBytes).toBe(2 * text)
  })

  it('says what a page exceeds of its budgets', () => {
    expect(overBudget('astro', weight)).toEqual([])
    const heavy = measurePage(`<div>${'<p>x</p>'.repeat(300)}</div>`)
    expect(overBudget('astro', heavy)).toEqual(['301 elements > 300'])
    expect(overBudget('next', heavy)).toEqual([])
    expect(overBudget('next', measurePage(`<p>${'x'.repeat(70_000)}</p>`))).toEqual(['70,007 B > 70,000 B'])
  })

  it("says when a review's markup is over its budget on average, or a star rating over 150 B", () => {
    const padding = '<b></b>'.repeat(Math.ceil(PAGE_BUDGETS.reviewMarkup / 7))
    const heavyReview = review.replace('</article>', `${padding}</article>`)
    const markup = Buffer.byteLength(heavyReview) - (Buffer.byteLength(review) - weight.reviews.averageMarkup)
    expect(overBudget('astro', measurePage(`<ol>${heavyReview}</ol>`))).toEqual([
      `a review's markup ${markup} B on average > ${PAGE_BUDGETS.reviewMarkup} B`,
    ])
    const big = star.replace('4.0 out of 5', 'x'.repeat(100))
    expect(overBudget('next', measurePage(`<p>${big}</p>`))).toEqual([
      `a star rating of ${Buffer.byteLength(big)} B > ${PAGE_BUDGETS.starRating} B`,
    ])
  })
})

describe('nextPayload', () => {
  it('finds the star ratings serialised in the payload scripts, escaped as the page holds them', () => {
    const element =
      '["$","span",null,{"className":"vr-stars","aria-label":"]\\"[","data-r":40,"children":"4.0/5"}]'
    const flight = `1:["$","div",null,{"children":[${element},["$","p",null,{"children":"]\\"["}]]}]\n`
    const script = `<script>self.__next_f.push([1,${JSON.stringify(flight)}])</script>`
    const payload = nextPayload(
      `<html><body><p>a</p>${script}<script>self.__next_f.push([0])</script></body></html>`,
    )
    expect(payload.scripts).toBe(1)
    expect(payload.bytes).toBe(Buffer.byteLength(script))
    expect(payload.stars).toEqual({ count: 1, bytes: JSON.stringify(element).length - 2 })
  })
})
