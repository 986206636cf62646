/**
 * How `pnpm bench:scale` tells that a hand-written baseline built the markup of the library's build:
 * the reviews' markup of each page, comments and whitespace between elements aside.
 */
import { describe, expect, it } from 'vitest'
import { compareMarkup, reviewsMarkup, sampleMarkup } from './step.ts'

const page = (reviews: string) =>
  `<!doctype html><html><body><main><h1>SKU-001</h1>${reviews}</main><script>self.__next_f=[]</script></body></html>`

describe("the comparison of the reviews' markup", () => {
  it('reads the markup from the reviews element to the end of main, comments and whitespace aside', () => {
    const html = page('<div class="vr-product-reviews">\n  <p>4.6<!-- -->/5</p>  <p>a  b</p>\n</div>')
    expect(reviewsMarkup(html)).toBe('<div class="vr-product-reviews"><p>4.6/5</p><p>a b</p></div>')
  })

  it('finds no markup in a page without the reviews element', () => {
    expect(reviewsMarkup(page('<p>no reviews</p>'))).toBeUndefined()
  })

  it('names the pages whose markup differs, and where', async () => {
    const ours: Record<string, string> = {
      a: page('<div class="vr-product-reviews"><p>Show original</p></div>'),
      b: page('<div class="vr-product-reviews"><p>Reviews</p></div>'),
    }
    const hand: Record<string, string> = {
      a: page('<div class="vr-product-reviews">\n<p>Show original</p><!--$--></div>'),
      b: page('<div class="vr-product-reviews"><p>Review</p></div>'),
    }
    const sampled = await sampleMarkup(['a', 'b'], async (name) => ours[name] as string)
    const result = await compareMarkup(sampled, async (name) => hand[name] as string)
    expect(result.compared).toBe(2)
    expect(result.differing).toHaveLength(1)
    expect(result.differing[0]).toMatch(/^b from character 41/)
  })

  it('samples at most the pages asked, spread over them', async () => {
    const names = Array.from({ length: 1000 }, (_, i) => String(i))
    const read = async () => page('<div class="vr-product-reviews"></div>')
    const sampled = await sampleMarkup(names, read, 100)
    expect([...sampled.keys()].slice(0, 3)).toEqual(['0', '10', '20'])
    expect(await compareMarkup(sampled, read)).toEqual({ compared: 100, differing: [] })
  })
})
