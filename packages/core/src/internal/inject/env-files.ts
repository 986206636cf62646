/**
 * The `.env` files of the folder the command runs in, read as Next.js reads them for `next build` and
 * `next start`, so that a static site keeps its credentials where a Next.js site keeps them.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { EnvironmentSource } from '../environment.ts'

/**
 * The files read, the one that wins first, as Next.js ranks them in production: `.env.production.local`
 * over `.env.local` over `.env.production` over `.env`; the process environment wins over them all.
 */
export const ENV_FILES = ['.env.production.local', '.env.local', '.env.production', '.env'] as const

// One assignment: `KEY=value` or `export KEY=value`, the value bare (up to a `#`), or quoted in `'`, `"`
// or `` ` `` (then over several lines if it likes), then an optional comment. The rules of dotenv, which
// Next.js and Vite use.
const LINE =
  /^\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?$/gm

/**
 * The variables of a `.env` file, by the rules of dotenv: `KEY=value` a line, an optional `export `
 * before it, `#` starting a comment (outside quotes); a value in quotes keeps its spaces and `#`, and in
 * double quotes turns `\n` and `\r` into line ends; a later line for the same key wins. `$VAR` is kept as
 * written: there is no expansion (Next.js would expand it).
 */
export function parseEnvFile(text: string): Record<string, string> {
  const variables: Record<string, string> = {}
  for (const match of text.replace(/\r\n?/g, '\n').matchAll(LINE)) {
    const [, key, raw = ''] = match
    if (key === undefined) continue
    let value = raw.trim()
    const quote = value[0]
    if ((quote === '"' || quote === "'" || quote === '`') && value.endsWith(quote) && value.length > 1) {
      value = value.slice(1, -1)
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r')
    }
    variables[key] = value
  }
  return variables
}

/** The environment a command sees: the process's, over the `.env` files of its folder. */
export interface EnvFilesEnvironment {
  /** Every variable: the process environment's, then those of the files it lacks. */
  env: EnvironmentSource
  /** The files read, the one that wins first (those of {@link ENV_FILES} that exist). */
  files: string[]
}

/**
 * The process environment `env` over the variables of the `.env` files of `dir` ({@link ENV_FILES}, as
 * Next.js ranks them): a variable set in `env` (even empty) keeps its value, as Next.js keeps it.
 *
 * @throws Error naming the file, when one exists but cannot be read.
 */
export async function readEnvFiles(dir: string, env: EnvironmentSource): Promise<EnvFilesEnvironment> {
  const merged: Record<string, string | undefined> = { ...env }
  const files: string[] = []
  for (const file of ENV_FILES) {
    let text: string
    try {
      text = await readFile(join(dir, file), 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue
      throw new Error(`${file} cannot be read: ${(error as Error).message}`, { cause: error })
    }
    files.push(file)
    for (const [key, value] of Object.entries(parseEnvFile(text))) {
      if (!(key in merged)) merged[key] = value
    }
  }
  return { env: merged, files }
}
