import { readdir, readFile } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type AstroInlineConfig, build } from 'astro'
import type { TestSandbox } from '../../../test/fixtures/sandbox.ts'
import { sourceCondition } from '../../../test/fixtures/source-condition.ts'

/** Builds the fixture site `test/fixtures/<name>` with `astro build`, quietly, with the given config on top. */
export async function buildFixture(name: string, config: AstroInlineConfig): Promise<void> {
  await build({
    root: fileURLToPath(new URL(`./fixtures/${name}/`, import.meta.url)),
    logLevel: 'warn',
    ...config,
    vite: { ...config.vite, plugins: [...(config.vite?.plugins ?? []), sourceCondition] },
  })
}

/** Every HTML file of a build's output, by path relative to it with `/` separators. */
export async function readPages(outDir: string): Promise<Map<string, string>> {
  const pages = new Map<string, string>()
  for (const entry of await readdir(outDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue
    const path = join(entry.parentPath, entry.name)
    pages.set(path.slice(outDir.length).split(sep).filter(Boolean).join('/'), await readFile(path, 'utf8'))
  }
  return pages
}

/** Points the `VERIFIED_REVIEWS_*` variables at a sandbox; returns a function that restores them. */
export function pointEnvironmentAt(sb: TestSandbox): () => void {
  const env = sb.env()
  const saved = Object.keys(env).map((name) => [name, process.env[name]] as const)
  Object.assign(process.env, env)
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
}

/** API requests the sandbox served since its counters were last zeroed, by operation; then zeroes them. */
export async function takeOperations(sb: TestSandbox): Promise<Record<string, number>> {
  const { operations } = await sb.stats()
  await sb.admin('DELETE', 'stats')
  return operations
}
