import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { keepStarFile } from './star-file.ts'

const starPath = createRequire(import.meta.url).resolve('@verified-reviews/core/star.svg')
const star = readFileSync(starPath)
const small = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')

describe('keepStarFile', () => {
  it('never inlines the stars of styles.css, which Vite would otherwise turn into a data: URI', () => {
    expect(star.length).toBeLessThan(4096)
    expect(keepStarFile(undefined)(starPath, star)).toBe(false)
    expect(keepStarFile(1_000_000)(starPath, star)).toBe(false)
    expect(keepStarFile(() => true)(starPath, star)).toBe(false)
  })

  it("leaves every other file to the site's setting, else to Vite's default", () => {
    expect(keepStarFile(undefined)('/site/icon.svg', small)).toBeUndefined()
    expect(keepStarFile(0)('/site/icon.svg', small)).toBe(false)
    expect(keepStarFile(4096)('/site/icon.svg', small)).toBe(true)
    expect(keepStarFile(() => true)('/site/star.svg', small)).toBe(true)
  })
})
