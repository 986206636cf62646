/**
 * The `.env` files of the folder the command runs in, read as Next.js reads them for `next build` and
 * `next start`, so that a static site keeps its credentials where a Next.js site keeps them.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import type { EnvironmentSource } from '../settings/environment.ts'

/**
 * The files read, the one that wins first, as Next.js ranks them in production: `.env.production.local`
 * over `.env.local` over `.env.production` over `.env`; the process environment wins over them all.
 */
export const ENV_FILES = ['.env.production.local', '.env.local', '.env.production', '.env'] as const

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
 * `$VARIABLE` in a value is kept as written: there is no expansion (Next.js would expand it).
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
    // Node's own parser, the one of `node --env-file`: KEY=value lines, `export ` before one, `#`
    // comments, values in quotes (over several lines, `\n` a line end in double quotes); no expansion.
    for (const [key, value] of Object.entries(parseEnv(text))) {
      if (!(key in merged)) merged[key] = value
    }
  }
  return { env: merged, files }
}
