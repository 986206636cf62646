// `pnpm demo`: the sandbox on :4010, then both storefronts built against it and served
// (Next.js on :3000, Astro on :4321). No credentials needed.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { createSandbox } from '@verified-reviews/sandbox'

const root = fileURLToPath(new URL('..', import.meta.url))
const sandboxPort = Number(process.env.SANDBOX_PORT ?? 4010)
const nextPort = Number(process.env.NEXT_PORT ?? 3000)
const astroPort = Number(process.env.ASTRO_PORT ?? 4321)

const sandbox = await createSandbox({ port: sandboxPort })
const revalidateSecret = randomBytes(16).toString('hex')
const env = {
  ...process.env,
  VERIFIED_REVIEWS_ORIGIN: sandbox.origin,
  VERIFIED_REVIEWS_CLIENT_ID: sandbox.clientId,
  VERIFIED_REVIEWS_CLIENT_SECRET: sandbox.clientSecret,
  VERIFIED_REVIEWS_WEBSITE_ID: sandbox.websiteId,
  VERIFIED_REVIEWS_REVALIDATE_SECRET: revalidateSecret,
  NEXT_TELEMETRY_DISABLED: '1',
  ASTRO_TELEMETRY_DISABLED: '1',
  ASTRO_DEMO_SITE_URL: `http://127.0.0.1:${astroPort}`,
}
console.log(`Sandbox listening at ${sandbox.origin}`)

const children: ChildProcess[] = []
const stop = async (code = 0) => {
  for (const child of children) child.kill('SIGTERM')
  await sandbox.close()
  process.exit(code)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())

/** Runs a Node script to completion with the demo environment; fails the demo if it fails. */
function run(label: string, args: string[], cwd = root): Promise<void> {
  console.log(`\n--- ${label}`)
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: 'inherit' })
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${label} failed with exit code ${code}`)),
    )
  })
}

/** Starts a long-running server in the background. */
function serve(args: string[], cwd: string): void {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] })
  child.on('exit', (code) => {
    if (code !== 0 && code !== null) console.error(`${args.join(' ')} exited with ${code}`)
  })
  children.push(child)
}

/** Every package of `packages/`, each after the workspace packages it depends on. */
async function packagesInBuildOrder(): Promise<{ name: string; folder: string }[]> {
  const folders = (await readdir(`${root}packages`, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => `packages/${entry.name}`)
  const manifests = new Map<string, { folder: string; needs: string[] }>()
  for (const folder of folders) {
    const manifest = JSON.parse(await readFile(`${root}${folder}/package.json`, 'utf8')) as {
      name: string
      dependencies?: Record<string, string>
      peerDependencies?: Record<string, string>
      devDependencies?: Record<string, string>
    }
    const needs = Object.keys({
      ...manifest.dependencies,
      ...manifest.peerDependencies,
      ...manifest.devDependencies,
    })
    manifests.set(manifest.name, { folder, needs })
  }
  const ordered: { name: string; folder: string }[] = []
  const placed = new Set<string>()
  const place = (name: string, path: string[]): void => {
    const manifest = manifests.get(name)
    if (manifest === undefined || placed.has(name)) return
    if (path.includes(name))
      throw new Error(`packages depend on each other in a circle: ${[...path, name].join(' -> ')}`)
    for (const need of manifest.needs) place(need, [...path, name])
    placed.add(name)
    ordered.push({ name, folder: manifest.folder })
  }
  for (const name of [...manifests.keys()].sort()) place(name, [])
  return ordered
}

const nextApp = `${root}apps/next-demo`
const astroApp = `${root}apps/astro-demo`
try {
  // The Next.js demo consumes the packages' dist/ (Turbopack has no custom export conditions), so every
  // package is built, whatever the demos import today.
  const tsc = `${root}node_modules/typescript/bin/tsc`
  for (const { name, folder } of await packagesInBuildOrder()) {
    await run(`building ${name}`, [tsc, '-p', `${folder}/tsconfig.build.json`])
  }
  await run('building the Next.js demo', ['node_modules/next/dist/bin/next', 'build'], nextApp)
  await run(
    'building the Astro demo',
    ['--conditions=@verified-reviews/source', 'node_modules/astro/bin/astro.mjs', 'build'],
    astroApp,
  )
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  await stop(1)
}

serve(
  ['node_modules/next/dist/bin/next', 'start', '--port', String(nextPort), '--hostname', '127.0.0.1'],
  nextApp,
)
serve(
  [
    '--conditions=@verified-reviews/source',
    'node_modules/astro/bin/astro.mjs',
    'preview',
    '--port',
    String(astroPort),
    '--host',
    '127.0.0.1',
  ],
  astroApp,
)

console.log(`
Verified Reviews demo (all data from the sandbox, no credentials needed)

  Next.js storefront   http://127.0.0.1:${nextPort}/en   (product page: /en/products/SKU-001, brand: /en/brand, checkout: /en/checkout)
  Astro storefront     http://127.0.0.1:${astroPort}/en/   (static; product page: /en/products/SKU-001/)
  Sandbox              ${sandbox.origin}   (client id ${sandbox.clientId}, client secret ${sandbox.clientSecret})

  Add reviews:   curl -X POST -H 'content-type: application/json' -d '[{"product_variation_id":"SKU-001","review_rate":5}]' ${sandbox.origin}/__sandbox/product-reviews
  Revalidate:    curl -X POST -H 'authorization: Bearer ${revalidateSecret}' http://127.0.0.1:${nextPort}/api/revalidate-reviews

Press Ctrl+C to stop.`)
