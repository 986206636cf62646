// After `astro build`: every link of a README (the root one, packages/*, examples/*) into this site must
// reach a page of the build, and its #anchor a heading of that page, whichever form it takes: the
// site's address (site.mjs), or, until the site is deployed, the page's source on GitHub
// (`…/blob/main/apps/docs/src/content/docs/….md`), which is checked as the page built from it.
// starlight-links-validator sees neither; this check does. The forms themselves (no link into an
// undeployed site, no relative link in a package README) are checked without a build by
// `pnpm release:metadata` (scripts/release-metadata.ts).
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { readmes, routeOfSource, sitePrefix } from '../../scripts/release-metadata.ts'
import { branch, repositoryUrl } from './site.mjs'

const root = fileURLToPath(new URL('../../', import.meta.url))
const dist = fileURLToPath(new URL('./dist/', import.meta.url))
const blobPrefix = `${repositoryUrl}/blob/${branch}/`
const literal = (text) => text.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')
const link = new RegExp(`(?:${literal(sitePrefix)}|${literal(blobPrefix)})[^)\\]\\s>\`'"]*`, 'g')

const problems = []
let checked = 0
const files = readmes()
for (const readme of files) {
  const text = readFileSync(`${root}${readme}`, 'utf8')
  for (const [url] of text.matchAll(link)) {
    const [address = '', anchor] = url.split('#')
    let path = address.slice(sitePrefix.length)
    if (address.startsWith(blobPrefix)) {
      const source = address.slice(blobPrefix.length)
      const route = routeOfSource(source)
      if (route === undefined) continue // another file of the repository: release-metadata checks it exists
      if (!existsSync(`${root}${source}`)) {
        problems.push(`${readme}: ${url}: no such file`)
        continue
      }
      path = route
    }
    checked++
    const page = `${dist}${path}${path === '' || path.endsWith('/') ? '' : '/'}index.html`
    if (!existsSync(page)) problems.push(`${readme}: ${url}: no such page`)
    else if (anchor && !readFileSync(page, 'utf8').includes(`id="${anchor}"`)) {
      problems.push(`${readme}: ${url}: no heading #${anchor} on that page`)
    }
  }
}
if (problems.length > 0) {
  console.error(`README links into the docs: ${problems.length} broken\n${problems.join('\n')}`)
  process.exit(1)
}
console.log(`README links into the docs: ${checked} links in ${files.length} READMEs, all valid`)
