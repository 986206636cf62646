// What a release needs of each public package that derives from one place, apps/docs/site.mjs (the
// repository on GitHub, the docs address, whether the site is deployed):
//   - `repository` (npm provenance checks it against the repository that ran the workflow), `homepage`
//     and `bugs` in package.json;
//   - a LICENSE in the package's folder, identical to the root one: npm packs the LICENSE of the folder
//     it packs, never the root's (pnpm falls back to the root's, npm does not), and GitHub shows it there;
//   - README links that work where npm shows the README, without the repository: absolute, and into
//     the docs site only once it is deployed (until then, to the page's source on GitHub).
//
//   node scripts/release-metadata.ts           lists what differs, exit 1 if anything does
//   node scripts/release-metadata.ts --write   writes package.json fields, LICENSE copies, README links
//
// test/packaging/release.test.ts runs the check; the tarball test reads the same fields back from the
// packed package.json.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { base, branch, deployed, docsSources, repositoryUrl, site } from '../apps/docs/site.mjs'

/** The repository's root, with a trailing slash. */
export const root = fileURLToPath(new URL('../', import.meta.url))

/** A package of `packages/` that npm publishes (not `"private": true`). */
export interface PublicPackage {
  /** Its folder under `packages/`. */
  folder: string
  name: string
  version: string
  manifest: Record<string, unknown>
}

/** Every package under `packages/` without `"private": true`, by folder name. */
export function publicPackages(): PublicPackage[] {
  const packages: PublicPackage[] = []
  for (const entry of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
    const file = join(root, 'packages', entry.name, 'package.json')
    if (!entry.isDirectory() || !existsSync(file)) continue
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    if (manifest.private === true) continue
    packages.push({
      folder: entry.name,
      name: String(manifest.name),
      version: String(manifest.version),
      manifest,
    })
  }
  return packages.sort((a, b) => a.folder.localeCompare(b.folder))
}

/** The `repository`, `homepage` and `bugs` fields a public package in `packages/<folder>` must have. */
export function expectedFields(folder: string): Record<'repository' | 'homepage' | 'bugs', unknown> {
  return {
    repository: { type: 'git', url: `git+${repositoryUrl}.git`, directory: `packages/${folder}` },
    homepage: deployed
      ? `${site}${base}/packages/${folder}/`
      : `${repositoryUrl}/tree/${branch}/packages/${folder}#readme`,
    bugs: { url: `${repositoryUrl}/issues` },
  }
}

/** The address of the docs site, with a trailing slash: a page's route follows it. */
export const sitePrefix = `${site}${base}/`
const blobPrefix = `${repositoryUrl}/blob/${branch}/`
const treePrefix = `${repositoryUrl}/tree/${branch}/`
const rawPrefix = `${repositoryUrl.replace('https://github.com/', 'https://raw.githubusercontent.com/')}/${branch}/`
/** The generated API reference of a package, which has no source file: it stands for its sources. */
const referenceRoute = /^reference\/api\/verified-reviews\/([a-z0-9-]+)\//

/** The file under `docsSources` a page's route is built from, or undefined when there is none. */
export function sourceOfRoute(route: string): string | undefined {
  const path = route.replace(/\/$/, '')
  const candidates =
    path === ''
      ? ['index.md', 'index.mdx']
      : [`${path}.md`, `${path}.mdx`, `${path}/index.md`, `${path}/index.mdx`]
  return candidates.map((file) => `${docsSources}${file}`).find((file) => existsSync(join(root, file)))
}

/** The route of the page built from a file under `docsSources`, or undefined for another file. */
export function routeOfSource(path: string): string | undefined {
  if (!path.startsWith(docsSources) || !/\.mdx?$/.test(path)) return undefined
  const route = path.slice(docsSources.length).replace(/\.mdx?$/, '')
  if (route === 'index') return ''
  return `${route.replace(/\/index$/, '')}/`
}

/** A link into the docs, in the form `deployed` asks for; other links unchanged. */
export function docsLink(url: string): string {
  const [address = '', anchor] = url.split('#')
  const suffix = anchor === undefined ? '' : `#${anchor}`
  if (deployed) {
    if (address.startsWith(blobPrefix)) {
      const route = routeOfSource(address.slice(blobPrefix.length))
      if (route !== undefined) return `${sitePrefix}${route}${suffix}`
    }
    if (address.startsWith(treePrefix)) {
      const folder = address.slice(treePrefix.length).match(/^packages\/([a-z0-9-]+)\/src$/)?.[1]
      if (folder !== undefined) return `${sitePrefix}reference/api/verified-reviews/${folder}/`
    }
    return url
  }
  if (!address.startsWith(sitePrefix)) return url
  const route = address.slice(sitePrefix.length)
  const reference = route.match(referenceRoute)
  if (reference) return `${treePrefix}packages/${reference[1]}/src`
  const source = sourceOfRoute(route)
  return source === undefined ? url : `${blobPrefix}${source}${suffix}`
}

/** The READMEs a reader meets: the root one, each package's (the one npm shows), each example's. */
export function readmes(): string[] {
  const found = ['README.md']
  for (const folder of ['packages', 'examples']) {
    if (!existsSync(join(root, folder))) continue
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      if (entry.isDirectory() && existsSync(join(root, folder, entry.name, 'README.md'))) {
        found.push(`${folder}/${entry.name}/README.md`)
      }
    }
  }
  return found
}

const absoluteUrl = /https?:\/\/[^)\]\s>`'"]+/g
/** Targets of Markdown links and images, reference definitions and HTML `href`/`src` attributes. */
const linkTarget =
  /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\)|^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)|(?:href|src)="([^"]+)"/gm

/** The README with its docs links in the form `deployed` asks for. */
export function rewriteReadme(text: string): string {
  // An address in a code span is shown as written (it names the site, it does not link to it).
  return text.replace(absoluteUrl, (url, offset: number) => (text[offset - 1] === '`' ? url : docsLink(url)))
}

/** Every link target of a Markdown text, outside fenced code blocks. */
export function linkTargets(text: string): string[] {
  const prose = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1\s*$/gm, '')
  return [...prose.matchAll(linkTarget)].map((match) => match[1] ?? match[2] ?? match[3] ?? '')
}

/**
 * What is wrong with the links of a package's README as npm shows it: relative links (npm has no
 * folder to resolve them in), links into the docs site before it is deployed, and links into the
 * repository naming a file or folder it does not hold.
 */
export function packageReadmeProblems(readme: string, text: string): string[] {
  const problems: string[] = []
  for (const target of linkTargets(text)) {
    if (target.startsWith('#') || target.startsWith('mailto:')) continue
    if (!/^https?:\/\//.test(target)) {
      problems.push(`${readme}: ${target}: a relative link, which npm cannot resolve`)
      continue
    }
    const address = target.split('#')[0] ?? ''
    if (!deployed && address.startsWith(sitePrefix)) {
      problems.push(`${readme}: ${target}: the docs site is not deployed yet (apps/docs/site.mjs)`)
      continue
    }
    for (const prefix of [blobPrefix, treePrefix, rawPrefix]) {
      if (!address.startsWith(prefix)) continue
      const path = decodeURIComponent(address.slice(prefix.length).replace(/\?.*$/, ''))
      if (!existsSync(join(root, path))) problems.push(`${readme}: ${target}: no ${path} in the repository`)
    }
  }
  return problems
}

/** Every difference between the repository and what this script would write, one line each. */
export function releaseMetadataProblems(): string[] {
  const problems: string[] = []
  const license = readFileSync(join(root, 'LICENSE'), 'utf8')
  for (const { folder, manifest } of publicPackages()) {
    for (const [field, value] of Object.entries(expectedFields(folder))) {
      if (JSON.stringify(manifest[field]) !== JSON.stringify(value)) {
        problems.push(`packages/${folder}/package.json: "${field}" should be ${JSON.stringify(value)}`)
      }
    }
    const copy = join(root, 'packages', folder, 'LICENSE')
    if (!existsSync(copy) || readFileSync(copy, 'utf8') !== license) {
      problems.push(`packages/${folder}/LICENSE: not a copy of the root LICENSE`)
    }
  }
  for (const readme of readmes()) {
    const text = readFileSync(join(root, readme), 'utf8')
    if (rewriteReadme(text) !== text) problems.push(`${readme}: docs links not in the ${linkForm()} form`)
  }
  for (const { folder } of publicPackages()) {
    const readme = `packages/${folder}/README.md`
    if (!existsSync(join(root, readme))) problems.push(`${readme}: missing`)
    else problems.push(...packageReadmeProblems(readme, readFileSync(join(root, readme), 'utf8')))
  }
  return problems
}

function linkForm(): string {
  return deployed ? 'docs site' : 'docs sources on GitHub'
}

/** Writes what `releaseMetadataProblems` compares against; keeps the other fields and their order. */
export function writeReleaseMetadata(): void {
  const license = readFileSync(join(root, 'LICENSE'), 'utf8')
  for (const { folder, manifest } of publicPackages()) {
    const fields = expectedFields(folder)
    const written: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(manifest)) {
      if (key in fields) continue
      written[key] = value
      // Beside `license`, where a reader of package.json looks for the project's addresses.
      if (key === 'license') Object.assign(written, fields)
    }
    if (!('license' in manifest)) Object.assign(written, fields)
    writeFileSync(join(root, 'packages', folder, 'package.json'), `${JSON.stringify(written, null, 2)}\n`)
    writeFileSync(join(root, 'packages', folder, 'LICENSE'), license)
  }
  for (const readme of readmes()) {
    const text = readFileSync(join(root, readme), 'utf8')
    const rewritten = rewriteReadme(text)
    if (rewritten !== text) writeFileSync(join(root, readme), rewritten)
  }
}

if (import.meta.main) {
  if (process.argv.includes('--write')) writeReleaseMetadata()
  const problems = releaseMetadataProblems()
  if (problems.length > 0) {
    console.error(`Release metadata: ${problems.length} problems\n${problems.join('\n')}`)
    process.exitCode = 1
  } else {
    console.log(`Release metadata: ${publicPackages().length} public packages, all consistent with site.mjs`)
  }
}
