// `pnpm test:quickstart`: the README's first command, run as a newcomer runs it. A fresh clone of the
// commit (no node_modules, no dist/ anywhere), the command copied from the README's quick start, then
// both storefronts must answer a product page with stars and one Product node. Prints the time from the
// command to both storefronts serving, and fails on a warning of ours in the command's output.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../fixtures/free-port.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const deadlineMs = 15 * 60_000

/** The first command of the README's quick start: the line after the comment `# 1.` in its `sh` block. */
export function quickStartCommand(readme: string): string {
  const block = /## Quick start[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1]
  if (block === undefined) throw new Error('README.md has no ```sh block under "## Quick start"')
  const lines = block.split('\n')
  const comment = lines.findIndex((line) => line.startsWith('# 1.'))
  const command = lines[comment + 1]?.trim()
  if (comment < 0 || !command) throw new Error('README.md\'s quick start has no command after "# 1."')
  return command
}

/** Lines of the command's output that a newcomer would read as a broken install or demo. */
export function warningsOfOurs(output: string): string[] {
  const patterns = [/Failed to create bin/, /Ignored build scripts/, /\bWARN\b/, /\bwarning\b/i, /\berror\b/i]
  return output.split('\n').filter((line) => patterns.some((pattern) => pattern.test(line)))
}

/** Counts the Product and ProductGroup nodes of a page's JSON-LD, top level and in `@graph`. */
export function productNodes(html: string): number {
  let count = 0
  for (const match of html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)) {
    const data = JSON.parse(match[1] ?? 'null') as unknown
    const nodes = Array.isArray(data) ? data : [data]
    for (const node of nodes.flatMap((item) => (item?.['@graph'] as unknown[]) ?? [item])) {
      const type = (node as { '@type'?: unknown })?.['@type']
      if (type === 'Product' || type === 'ProductGroup') count++
    }
  }
  return count
}

/** Whether `url` answers 200 with stars (an `… out of 5` label) and exactly one Product node. */
async function serves(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) })
    if (response.status !== 200) return false
    const html = await response.text()
    return /aria-label="[\d.]+ out of 5"/.test(html) && productNodes(html) === 1
  } catch {
    return false
  }
}

async function main(): Promise<number> {
  const command = quickStartCommand(await readFile(join(root, 'README.md'), 'utf8'))
  const folder = await mkdtemp(join(tmpdir(), 'vr-quickstart-'))
  const clone = join(folder, 'verified-reviews')
  execFileSync('git', ['clone', '--quiet', root, clone], { stdio: 'inherit' })
  const commit = execFileSync('git', ['rev-parse', '--short=10', 'HEAD'], { cwd: clone }).toString().trim()
  const ports = { sandbox: await freePort(), next: await freePort(), astro: await freePort() }
  const pages = {
    next: `http://127.0.0.1:${ports.next}/en/products/SKU-001`,
    astro: `http://127.0.0.1:${ports.astro}/en/products/SKU-001/`,
  }
  console.log(`# quickstart: a fresh clone of ${commit} in ${clone}\n$ ${command}`)

  // The environment of a newcomer's shell: none of this process's pnpm or Node 24 on the way.
  const env: Record<string, string | undefined> = {
    PATH: (process.env.PATH ?? '')
      .split(':')
      .filter((entry) => !entry.includes('node_modules'))
      .join(':'),
    HOME: process.env.HOME,
    CI: process.env.CI,
    SANDBOX_PORT: String(ports.sandbox),
    NEXT_PORT: String(ports.next),
    ASTRO_PORT: String(ports.astro),
  }
  const started = performance.now()
  let output = ''
  const child: ChildProcess = spawn('bash', ['-c', command], {
    cwd: clone,
    env: env as NodeJS.ProcessEnv,
    detached: true,
  })
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      process.stdout.write(chunk)
    })
  }
  let exited: number | null | undefined
  child.on('exit', (code) => {
    exited = code
  })

  const servedAt: Partial<Record<keyof typeof pages, number>> = {}
  // What the command printed and whether it ended, before this script stopped it.
  let printed = ''
  let ended: number | null | undefined
  try {
    while (performance.now() - started < deadlineMs && exited === undefined) {
      for (const name of ['next', 'astro'] as const) {
        if (servedAt[name] === undefined && (await serves(pages[name])))
          servedAt[name] = (performance.now() - started) / 1000
      }
      if (servedAt.next !== undefined && servedAt.astro !== undefined) break
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  } finally {
    printed = output
    ended = exited
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM')
      } catch {}
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
    await rm(folder, { recursive: true, force: true })
  }

  const warnings = warningsOfOurs(printed)
  console.log('\n# quickstart result')
  console.log(
    `next storefront   ${pages.next}: ${servedAt.next === undefined ? 'never served' : `served stars and one Product node after ${servedAt.next.toFixed(1)} s`}`,
  )
  console.log(
    `astro storefront  ${pages.astro}: ${servedAt.astro === undefined ? 'never served' : `served stars and one Product node after ${servedAt.astro.toFixed(1)} s`}`,
  )
  if (ended !== undefined)
    console.log(`the command ended with exit code ${ended} before both storefronts served`)
  if (warnings.length > 0) console.log(`warnings in the command's output:\n  ${warnings.join('\n  ')}`)
  const ok = servedAt.next !== undefined && servedAt.astro !== undefined && warnings.length === 0
  if (ok) {
    const both = Math.max(servedAt.next ?? 0, servedAt.astro ?? 0)
    console.log(`from the command to both storefronts serving: ${both.toFixed(1)} s`)
  }
  return ok ? 0 : 1
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main()
