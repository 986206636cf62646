// Checks that every file of packages/core/src belongs to exactly one layer of scripts/core-layers.mjs,
// that every layer still holds a file, and that the `entries` layer holds the files of core's
// package.json `exports` (and tests of them) and nothing else. Run by `pnpm lint:deps`, after
// dependency-cruiser has checked that no file imports from a layer above its own.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CORE_LAYERS } from './core-layers.mjs'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CORE = 'packages/core'
const TEST = /\.test(-d)?\.tsx?$/

const files = readdirSync(join(ROOT, CORE, 'src'), { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'))
  .sort()

const problems = []
const names = new Set()
for (const layer of CORE_LAYERS) {
  if (names.has(layer.name)) problems.push(`two layers are named ${layer.name}`)
  names.add(layer.name)
}

const members = new Map(CORE_LAYERS.map((layer) => [layer.name, []]))
for (const file of files) {
  const layers = CORE_LAYERS.filter((layer) => layer.paths.some((path) => file.startsWith(path)))
  if (layers.length === 0) problems.push(`${file} belongs to no layer: add it to a layer's folder`)
  else if (layers.length > 1)
    problems.push(`${file} belongs to ${layers.length} layers (${layers.map((l) => l.name).join(', ')})`)
  else members.get(layers[0].name).push(file)
}
for (const layer of CORE_LAYERS) {
  for (const path of layer.paths) {
    if (!files.some((file) => file.startsWith(path)))
      problems.push(`${path} (layer ${layer.name}) matches no file: remove it from scripts/core-layers.mjs`)
  }
}

// Every source file that core's package.json exports (`./dist/x.js` is built from `./src/x.ts`), as a
// path from the repository's root.
function targets(value, into) {
  if (typeof value === 'string') {
    if (value.startsWith('./src/')) into.add(`${CORE}/${value.slice(2)}`)
    const built = /^\.\/dist\/(.+)\.js$/.exec(value)
    if (built !== null) into.add(`${CORE}/src/${built[1]}.ts`)
  } else if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) targets(inner, into)
  }
  return into
}
const { exports } = JSON.parse(readFileSync(join(ROOT, CORE, 'package.json'), 'utf8'))
const exported = targets(exports, new Set())
const top = CORE_LAYERS.at(-1)
for (const file of exported) {
  if (!members.get(top.name).includes(file))
    problems.push(`${file} is in core's exports but not in the top layer (${top.name})`)
}
for (const file of members.get(top.name)) {
  if (!exported.has(file) && !TEST.test(file))
    problems.push(
      `${file} is in the top layer (${top.name}) but not in core's exports: move it to a layer below`,
    )
}

if (problems.length > 0) {
  console.error(`core layers (scripts/core-layers.mjs):\n${problems.map((p) => `  ${p}`).join('\n')}`)
  process.exit(1)
}
console.log(`core layers: ${files.length} files in ${CORE_LAYERS.length} layers, each in exactly one`)
