/**
 * `pnpm surface`: the public surface of each package, as its `exports` map and TypeScript see it: the
 * entries, the values and types each exports, and the names exported by more than one entry of a
 * package (a figure for the README and the issues, not a test).
 *
 *   pnpm surface [--names]   (--names lists every entry's value exports)
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import ts from 'typescript'

const { values: flags } = parseArgs({ options: { names: { type: 'boolean', default: false } } })
const ROOT = new URL('..', import.meta.url).pathname
const SOURCE = '@verified-reviews/source'

interface Entry {
  pkg: string
  entry: string
  file: string
}
const entries: Entry[] = []
for (const folder of readdirSync(join(ROOT, 'packages')).sort()) {
  const dir = join(ROOT, 'packages', folder)
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name: string
    exports: Record<string, unknown>
  }
  for (const [entry, target] of Object.entries(manifest.exports)) {
    const source =
      typeof target === 'object' && target !== null ? (target as Record<string, unknown>)[SOURCE] : undefined
    if (typeof source !== 'string' || !/\.tsx?$/.test(source)) continue
    entries.push({ pkg: manifest.name, entry, file: join(dir, source) })
  }
}

const program = ts.createProgram(
  entries.map((entry) => entry.file),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    jsx: ts.JsxEmit.ReactJSX,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    customConditions: [SOURCE],
  },
)
const checker = program.getTypeChecker()

console.log('| package | entries | value exports | type exports | names in two entries or more |')
console.log('|---|---|---|---|---|')
const byPackage = new Map<string, Entry[]>()
for (const entry of entries) byPackage.set(entry.pkg, [...(byPackage.get(entry.pkg) ?? []), entry])
const listing: string[] = []
for (const [pkg, list] of byPackage) {
  let valueCount = 0
  let typeCount = 0
  const where = new Map<string, string[]>()
  for (const { entry, file } of list) {
    const source = program.getSourceFile(file)
    const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source)
    if (symbol === undefined) throw new Error(`no module symbol for ${file}`)
    const names: string[] = []
    for (const exported of checker.getExportsOfModule(symbol)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      const isValue = (target.flags & ts.SymbolFlags.Value) !== 0
      if (isValue) {
        valueCount++
        names.push(exported.name)
      } else typeCount++
      where.set(exported.name, [...(where.get(exported.name) ?? []), entry])
    }
    listing.push(
      `${pkg}${entry.slice(1)}: ${names.length} values${flags.names ? `: ${names.sort().join(', ')}` : ''}`,
    )
  }
  const twice = [...where].filter(([, at]) => at.length > 1)
  console.log(
    `| ${pkg} | ${list.length} | ${valueCount} | ${typeCount} | ${twice.length}${twice.length > 0 ? ` (${twice.map(([name, at]) => `${name}: ${at.join(' ')}`).join('; ')})` : ''} |`,
  )
}
console.log('')
for (const line of listing) console.log(line)
