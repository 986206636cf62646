// The public entry points of every package: the source file (`@verified-reviews/source` condition) of
// each `exports` entry of packages/*/package.json, and the import path a user writes for it. The
// reference documents exactly these, so a new export appears in it without touching the docs.
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const packagesDir = fileURLToPath(new URL('../../packages/', import.meta.url))

/** @returns {{ file: string, importPath: string, folder: string, source: string }[]} */
export function publicEntryPoints() {
  const entries = []
  for (const folder of readdirSync(packagesDir).sort()) {
    const manifest = JSON.parse(readFileSync(`${packagesDir}${folder}/package.json`, 'utf8'))
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const source = typeof target === 'object' ? target['@verified-reviews/source'] : undefined
      if (!source) continue
      const relative = source.replace(/^\.\//, '')
      entries.push({
        file: `${packagesDir}${folder}/${relative}`,
        importPath: `${manifest.name}${subpath.slice(1)}`,
        folder,
        source: relative,
      })
    }
  }
  return entries
}
