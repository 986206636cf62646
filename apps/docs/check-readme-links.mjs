// After `astro build`: every link of a README (the root one, packages/*, examples/*) into this site must
// reach a page of the build, and its #anchor a heading of that page. npm shows a README without the
// repository, so READMEs link to the published site (site.mjs), which starlight-links-validator does not
// see; this check does.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { base, site } from './site.mjs'

const root = fileURLToPath(new URL('../../', import.meta.url))
const dist = fileURLToPath(new URL('./dist/', import.meta.url))
const prefix = `${site}${base}/`

const readmes = ['README.md']
for (const folder of ['packages', 'examples']) {
  if (!existsSync(`${root}${folder}`)) continue
  for (const entry of readdirSync(`${root}${folder}`, { withFileTypes: true })) {
    if (entry.isDirectory() && existsSync(`${root}${folder}/${entry.name}/README.md`)) {
      readmes.push(`${folder}/${entry.name}/README.md`)
    }
  }
}

const problems = []
let checked = 0
for (const readme of readmes) {
  const text = readFileSync(`${root}${readme}`, 'utf8')
  for (const [link] of text.matchAll(new RegExp(`${prefix.replaceAll('.', '\\.')}[^)\\]\\s>\`'"]*`, 'g'))) {
    checked++
    const [path, anchor] = link.slice(prefix.length).split('#')
    const page = `${dist}${path}${path === '' || path.endsWith('/') ? '' : '/'}index.html`
    if (!existsSync(page)) problems.push(`${readme}: ${link}: no such page`)
    else if (anchor && !readFileSync(page, 'utf8').includes(`id="${anchor}"`)) {
      problems.push(`${readme}: ${link}: no heading #${anchor} on that page`)
    }
  }
}
if (problems.length > 0) {
  console.error(`README links into the docs site: ${problems.length} broken\n${problems.join('\n')}`)
  process.exit(1)
}
console.log(`README links into the docs site: ${checked} links in ${readmes.length} READMEs, all valid`)
