/**
 * The fetch of the build's review data ahead of its pages: `withVerifiedReviews` starts it in a process of
 * its own once `next build` has loaded the config, so that the API's answers come while Next.js compiles
 * rather than after it, when the first page asks. Loaded by the config only during `next build`.
 */
import type { ChildProcess } from 'node:child_process'
import { buildAheadStarted, handBuildAhead, handedBuildCheck } from './build-handoff.ts'

/** What decides whether this process starts the fetch ahead: the process, as Node.js describes it. */
export interface AheadProcess {
  /** The process's title: `next build` sets `next-build (v16…)` before it loads the config. */
  title: string
  /** Its arguments: `--experimental-build-mode compile` builds no pages, `generate` empties nothing. */
  argv: readonly string[]
  env: Record<string, string | undefined>
}

/**
 * Whether `current` is the `next build` command itself, building pages in its default mode, after a
 * credentials check that passed, and has not started the fetch yet. Not in the workers Next.js starts
 * (which load the config again), nor where the config is loaded by anything but `next build`'s command
 * (a test, a script): there the pages fetch when the first asks, as they always could.
 */
export function fetchesAhead(current: AheadProcess): boolean {
  if (buildAheadStarted() || current.env.IS_NEXT_WORKER === 'true') return false
  if (!current.title.startsWith('next-build')) return false
  const at = current.argv.findIndex((arg) => arg.startsWith('--experimental-build-mode'))
  if (at !== -1) {
    const arg = current.argv[at] as string
    const mode = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : current.argv[at + 1]
    if (mode !== 'default') return false
  }
  return handedBuildCheck() === 'ok'
}

/** The module the fetch runs in, beside this file (`dist/internal/` once built). */
async function childModule(): Promise<{ path: string; execArgv: string[] }> {
  const { fileURLToPath } = await import('node:url')
  const source = import.meta.url.endsWith('.ts')
  const path = fileURLToPath(new URL(`./build-ahead-child.${source ? 'ts' : 'js'}`, import.meta.url))
  // From the sources (this repository's tests), the packages resolve to theirs.
  return { path, execArgv: source ? ['--conditions=@verified-reviews/source'] : [] }
}

/**
 * Starts the process that fetches the build's data into `directory` (the build folder of
 * `buildDirectory`) once that folder is gone, when `emptied`: `next build` empties its `distDir` after
 * loading the config, so the folder is made here and the fetch waits until the build has taken it away.
 * The process inherits this one's environment (credentials, the options handed to the workers) and says
 * itself as a build worker, so that it names the same build as they do; its output is the build's.
 */
export async function forkFetchAhead(directory: string, emptied: boolean): Promise<ChildProcess> {
  const [{ fork }, { mkdir }] = await Promise.all([import('node:child_process'), import('node:fs/promises')])
  if (emptied) await mkdir(directory, { recursive: true })
  const { path, execArgv } = await childModule()
  return fork(path, [emptied ? directory : ''], {
    env: { ...process.env, IS_NEXT_WORKER: 'true', NEXT_PHASE: 'phase-production-build' },
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
}

/**
 * Starts the fetch ahead of the pages, when {@link fetchesAhead} says this process is the one: the
 * child is let go (the build does not wait for it; its workers do, through the build's SQLite file) and
 * ends when `next build` ends. Its folder is `buildDirectory()`'s, which follows the `distDir` the config
 * has already handed to the workers; `cleanDistDir` is the config's (`false`: `next build` empties nothing,
 * and the fetch starts at once).
 */
export async function startFetchAhead(config: { cleanDistDir?: unknown }): Promise<void> {
  if (!fetchesAhead(process)) return
  const { buildDirectory } = await import('./paths.ts')
  let child: ChildProcess
  try {
    child = await forkFetchAhead(await buildDirectory(), config.cleanDistDir !== false)
  } catch {
    // A process that could not start leaves the fetch to the pages, as without it.
    return
  }
  child.on('error', () => {})
  handBuildAhead()
  child.unref()
  child.channel?.unref()
}
