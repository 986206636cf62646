// The structure the architecture page draws, read from the code when the site is built: dependency-cruiser
// reads every package's sources with the rules of `pnpm lint:deps` (.dependency-cruiser.mjs), and this
// module counts the imports between packages and between core's layers (scripts/core-layers.mjs, the order
// the `core-layers` rule enforces). Nothing here is written by hand, so the picture cannot drift.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { cruise } from 'dependency-cruiser'
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config'

/** A source file that is not a test: what `scripts/source-lines.sh` counts. */
const isSource = (path) =>
  /\.(ts|tsx|mjs)$/.test(path) && !/\.test\.tsx?$|\.test-d\.ts$|\/testing\//.test(path)

/**
 * @typedef {{ name: string, folder: string, lines: number, imports: Map<string, number> }} PackageNode
 * @typedef {{ name: string, holds: string, paths: string[], lines: number, folders: { path: string, lines: number }[], imports: Map<string, number>, importedFromPackages: number }} LayerNode
 */

/**
 * The packages of packages/ with the imports between them, and core's layers with the imports between
 * them, as counted in the code.
 *
 * @param {string} root the repository's root folder
 * @returns {Promise<{ packages: PackageNode[], layers: LayerNode[], upward: number }>}
 */
export async function readArchitecture(root) {
  const config = (await import(pathToFileURL(join(root, '.dependency-cruiser.mjs')).href)).default
  const { CORE_LAYERS } = await import(pathToFileURL(join(root, 'scripts/core-layers.mjs')).href)
  const { tsConfig, enhancedResolveOptions, ...options } = config.options
  const result = await cruise(
    ['packages'],
    { ...options, baseDir: root, tsPreCompilationDeps: true, validate: false },
    enhancedResolveOptions,
    { tsConfig: extractTSConfig(join(root, tsConfig.fileName)) },
  )
  const modules = result.output.modules

  const packageFolders = readdirSync(join(root, 'packages'))
  const packages = packageFolders.map((folder) => ({
    name: JSON.parse(readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8')).name,
    folder,
    // dependency-cruiser reads no `.astro` file: the lines of a package are counted from its folder.
    lines: sourceFiles(join(root, 'packages', folder, 'src')).reduce(
      (sum, file) => sum + lineCountAt(file),
      0,
    ),
    imports: new Map(),
  }))
  const packageOf = (path) => packages.find((p) => path.startsWith(`packages/${p.folder}/src/`))
  const layers = CORE_LAYERS.map((layer) => ({
    ...layer,
    lines: 0,
    folders: [],
    imports: new Map(),
    importedFromPackages: 0,
  }))
  const layerOf = (path) => layers.find((layer) => layer.paths.some((prefix) => path.startsWith(prefix)))

  let upward = 0
  for (const module of modules) {
    if (!isSource(module.source)) continue
    const from = packageOf(module.source)
    if (from === undefined) continue
    const lines = lineCountAt(join(root, module.source))
    const fromLayer = from.folder === 'core' ? layerOf(module.source) : undefined
    if (fromLayer !== undefined) {
      fromLayer.lines += lines
      const folder = folderOf(module.source, fromLayer)
      const entry = fromLayer.folders.find((f) => f.path === folder)
      if (entry) entry.lines += lines
      else fromLayer.folders.push({ path: folder, lines })
    }
    for (const dependency of module.dependencies) {
      const to = packageOf(dependency.resolved)
      if (to === undefined || !isSource(dependency.resolved)) continue
      if (to !== from) from.imports.set(to.name, (from.imports.get(to.name) ?? 0) + 1)
      if (to.folder !== 'core') continue
      const toLayer = layerOf(dependency.resolved)
      if (toLayer === undefined) continue
      if (fromLayer === undefined) toLayer.importedFromPackages += 1
      else if (toLayer !== fromLayer) {
        fromLayer.imports.set(toLayer.name, (fromLayer.imports.get(toLayer.name) ?? 0) + 1)
        if (layers.indexOf(toLayer) > layers.indexOf(fromLayer)) upward += 1
      }
    }
  }
  for (const layer of layers) layer.folders.sort((a, b) => b.lines - a.lines)
  return { packages, layers, upward }
}

/** The lines of each file read, by path: a package's count and its layers' read each file once. */
const counted = new Map()

/** The lines of a file, as `wc -l` counts them. */
function lineCountAt(file) {
  let lines = counted.get(file)
  if (lines === undefined) {
    lines = readFileSync(file, 'utf8').split('\n').length - 1
    counted.set(file, lines)
  }
  return lines
}

/** The source files under a folder, `.astro` ones included. */
function sourceFiles(folder) {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => isSource(file) || (file.endsWith('.astro') && !file.includes('/testing/')))
}

/** The folder (or loose file) of core a file is shown under in its layer's band. */
function folderOf(path, layer) {
  const prefix = layer.paths.find((p) => path.startsWith(p)) ?? ''
  const rest = path.slice(prefix.length)
  const slash = rest.indexOf('/')
  const shown = slash === -1 ? rest : `${rest.slice(0, slash)}/`
  return `${prefix.replace(/^packages\/core\/src\//, '')}${shown}`
}

/** The repository's root, from the docs app (where `astro build` runs). */
export const repositoryRoot = () => resolve(process.cwd(), '../..')
