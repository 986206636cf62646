import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { STAR_RATING } from './internal/view/stars.ts'

const css = await readFile(new URL('./styles.css', import.meta.url), 'utf8')

/** The declarations of the first rule whose selector is exactly `selector`, after `from`. */
function declarations(selector: string, from = 0): string {
  const start = css.indexOf(`${selector} {`, from)
  if (start === -1) throw new Error(`styles.css has no rule ${selector}`)
  return css.slice(css.indexOf('{', start) + 1, css.indexOf('}', start))
}

describe('the star rating in styles.css', () => {
  it('fills data-r tenths of the five stars, one selector for each of the 51 values', () => {
    expect(declarations(':where(.vr-stars)')).toContain('--vr-stars-fill: 0%;')
    for (let tenths = 1; tenths <= STAR_RATING.maxTenths; tenths++) {
      expect(declarations(`:where(.vr-stars[data-r="${tenths}"])`)).toContain(
        `--vr-stars-fill: ${tenths * 2}%;`,
      )
    }
    expect(css.match(/\[data-r="\d+"\]/g)).toHaveLength(STAR_RATING.maxTenths)
  })

  it('cuts the stars out of the gradient with star.svg, the file beside it, and no data: URI', () => {
    const rule = declarations(':where(.vr-stars)')
    expect(rule).toMatch(/^\s*mask: url\("\.\/star\.svg"\) 0 0 \/ 1em 1em repeat-x;$/m)
    expect(rule).toContain('var(--vr-star-color')
    expect(rule).toContain('var(--vr-star-empty-color')
    expect(css).not.toMatch(/url\(\s*["']?data:/i)
  })

  it('is five stars of 1em, sized by font-size', () => {
    const rule = declarations(':where(.vr-stars)')
    expect(rule).toContain('inline-size: 5em;')
    expect(rule).toContain('block-size: 1em;')
  })

  it('prints its colours', () => {
    expect(declarations(':where(.vr-stars)')).toMatch(/^\s*print-color-adjust: exact;$/m)
  })

  it('shows the text instead in forced-colors mode, where the gradient is dropped', () => {
    const media = css.indexOf('@media (forced-colors: active)')
    expect(media).toBeGreaterThan(-1)
    const rule = declarations(':where(.vr-stars)', media)
    expect(rule).toContain('mask: none;')
    expect(rule).toContain('text-indent: 0;')
    expect(rule).toContain('inline-size: auto;')
  })

  it('has its star file: one star in a square view box, as a mask takes it', async () => {
    const svg = await readFile(new URL('./star.svg', import.meta.url), 'utf8')
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 24 24"[^>]*>/)
    expect(svg.match(/<path /g)).toHaveLength(1)
  })
})
