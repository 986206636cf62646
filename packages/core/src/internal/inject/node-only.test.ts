import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const manifest = JSON.parse(readFileSync(join(SRC, '..', 'package.json'), 'utf8')) as {
  exports: Record<string, string | Record<string, unknown>>
}

const IMPORT =
  /^(?:import|export)\s+(?!type\s)(?:[\w$*{},\s]+?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm

/** Files (relative to src) and packages a module reaches by its imports that are not type-only. */
function reach(entry: string): Set<string> {
  const seen = new Set<string>()
  const visit = (file: string) => {
    const name = relative(SRC, file)
    if (seen.has(name)) return
    seen.add(name)
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2]
      if (specifier === undefined) continue
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier))
      else if (!specifier.startsWith('node:')) seen.add(`package ${specifier}`)
    }
  }
  visit(join(SRC, entry))
  return seen
}

function sourceOf(target: string | Record<string, unknown>): string {
  const source = typeof target === 'string' ? undefined : target['@verified-reviews/source']
  if (typeof source !== 'string') throw new Error(`no source condition in ${JSON.stringify(target)}`)
  return relative('./src', source)
}

describe('the HTML parser of the injector', () => {
  it('is reached from the inject entry and the command', () => {
    expect(reach('inject.ts')).toContain('package parse5')
    expect(reach('internal/inject/cli.ts')).toContain('package parse5')
  })

  it('is not reached from any other entry, nor is any injector module', () => {
    for (const [entry, target] of Object.entries(manifest.exports)) {
      // The stylesheet and its star are plain files that import no module.
      if (['./inject', './package.json', './styles.css', './star.svg'].includes(entry)) continue
      const reached = [...reach(sourceOf(target))]
      expect(
        reached.filter((name) => name === 'package parse5' || name.startsWith('internal/inject/')),
      ).toEqual([])
    }
  })

  it('is kept out of browser bundles: the inject entry resolves to the server-only error there', () => {
    expect(manifest.exports['./inject']).toMatchObject({ browser: { default: './dist/browser.js' } })
  })
})
