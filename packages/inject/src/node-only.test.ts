import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SRC = dirname(fileURLToPath(import.meta.url))
const manifestOf = (folder: string) =>
  JSON.parse(readFileSync(join(SRC, '../..', folder, 'package.json'), 'utf8')) as {
    exports: Record<string, string | Record<string, unknown>>
    dependencies?: Record<string, string>
    bin?: Record<string, string>
  }
const manifest = manifestOf('inject')
const core = manifestOf('core')

const IMPORT =
  /^(?:import|export)\s+(?!type\s)(?:[\w$*{},\s]+?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm

/**
 * Files (relative to `root`) and packages (`package parse5`, `package node:fs`) a module reaches by its
 * imports that are not type-only, dynamic imports included.
 */
function reach(entry: string, root = SRC): Set<string> {
  const seen = new Set<string>()
  const visit = (file: string) => {
    const name = relative(root, file)
    if (seen.has(name)) return
    seen.add(name)
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2]
      if (specifier === undefined) continue
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier))
      else seen.add(`package ${specifier}`)
    }
  }
  visit(join(root, entry))
  return seen
}

describe('the HTML parser of the injector', () => {
  it('is reached from the entry and the command', () => {
    expect(reach('index.ts')).toContain('package parse5')
    expect(reach('cli.ts')).toContain('package parse5')
    expect(manifest.bin).toEqual({ 'verified-reviews': './bin/verified-reviews.js' })
  })

  it('is a dependency of this package, not of core, which every other package installs', () => {
    expect(manifest.dependencies).toHaveProperty('parse5')
    expect(core.dependencies ?? {}).not.toHaveProperty('parse5')
    expect(JSON.stringify(core.exports)).not.toContain('inject')
    expect(core.bin).toBeUndefined()
  })

  it('is kept out of browser bundles: the entry resolves to the server-only error there', () => {
    expect(manifest.exports['.']).toMatchObject({ browser: { default: './dist/browser.js' } })
  })

  it("takes from core's internal entry nothing that reaches a node: module, since the island bundles that entry for the browser", () => {
    const internal = core.exports['./internal']
    if (typeof internal !== 'object') throw new Error('core has no ./internal entry')
    const source = String(internal['@verified-reviews/source'])
    const reached = [...reach(source, join(SRC, '../../core'))]
    expect(reached.filter((name) => name.startsWith('package '))).toEqual([])
    // It does reach a module: the check reads the files it should.
    expect(reached).toContain('src/internal/jsonld/merge.ts')
  })
})
