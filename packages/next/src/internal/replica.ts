import { type ProductReplica, processState } from '@verified-reviews/core/internal'
import { openSqliteReplica, refreshReplicaFromFile, type SqliteReplica } from '@verified-reviews/core/sync'
import { LOG_PREFIX } from './log-prefix.ts'
import { buildStorePath, nextDistDir } from './paths.ts'
import { isBuildPhase } from './phase.ts'

/**
 * The site's replica of the account on this server: `<distDir>/cache/verified-reviews/replica.sqlite`,
 * beside Next.js's own cache, which `next build` keeps and a redeploy on the same host finds. It is
 * brought up to the build's review store and summaries when the build synced later than it (a deploy),
 * then kept current by the revalidate route; every render of a product it holds reads it instead of the
 * API.
 */
export async function replicaPath(distDir?: string): Promise<string> {
  const { isAbsolute, join } = await import('node:path')
  const dir = distDir ?? nextDistDir()
  return join(isAbsolute(dir) ? dir : join(process.cwd(), dir), 'cache', 'verified-reviews', 'replica.sqlite')
}

interface Held {
  /** The replica of each file (one per build directory), opened once. */
  opened: Map<string, Promise<SqliteReplica | undefined>>
}

// One per process: the pages and the route handlers are bundles of their own, and must share one store.
const REPLICA = Symbol.for('verified-reviews.next.replica')
const held = (): Held => processState(REPLICA, () => ({ opened: new Map() }))

/**
 * Opens the replica and brings it up to the build's store: once per process. A file that cannot be
 * opened (corrupt, or of another format) is moved aside and made again from the build's store, once,
 * said in the log; when that fails too, undefined (the API serves, as without a replica).
 */
async function open(distDir: string | undefined): Promise<SqliteReplica | undefined> {
  const file = await replicaPath(distDir)
  const source = await buildStorePath(distDir)
  const attempt = async () => {
    const replica = openSqliteReplica(file)
    try {
      const refreshed = await refreshReplicaFromFile(replica, source)
      if (refreshed === 'copied')
        console.log(`${LOG_PREFIX} The review replica ${file} now holds the build's reviews.`)
      return replica
    } catch (error) {
      await replica.close()
      throw error
    }
  }
  try {
    return await attempt()
  } catch (error) {
    const { rename } = await import('node:fs/promises')
    const aside = `${file}.unreadable-${Date.now()}`
    console.error(
      `${LOG_PREFIX} The review replica ${file} could not be read (${(error as Error).message}): ` +
        `moved to ${aside} and made again from the build's reviews.`,
    )
    await rename(file, aside).catch(() => undefined)
    for (const suffix of ['-wal', '-shm'])
      await rename(`${file}${suffix}`, `${aside}${suffix}`).catch(() => undefined)
    try {
      return await attempt()
    } catch (again) {
      console.error(`${LOG_PREFIX} The review replica is unusable; pages read the API.`, again)
      return undefined
    }
  }
}

/**
 * The process's replica (opened on first use); undefined during `next build`, which reads its build
 * data, and where there is neither a replica nor a build store to make one from (`next dev`, a build
 * without credentials) unless `create` asks for an empty one (the revalidate route, which fills it).
 */
export async function siteReplica(
  distDir?: string,
  { create = false }: { create?: boolean } = {},
): Promise<SqliteReplica | undefined> {
  if (isBuildPhase()) return undefined
  const { opened } = held()
  const file = await replicaPath(distDir)
  let replica = opened.get(file)
  if (replica === undefined) {
    if (!create && !(await exists(file)) && !(await exists(await buildStorePath(distDir)))) return undefined
    replica = open(distDir)
    opened.set(file, replica)
  }
  return replica
}

async function exists(path: string): Promise<boolean> {
  const { access } = await import('node:fs/promises')
  return access(path).then(
    () => true,
    () => false,
  )
}

/**
 * The process's replica when it holds the reviews of `productIds`: a completed sync of the whole
 * account, or of named products among which they all are. Undefined otherwise (no replica yet, as in
 * `next dev` or before a first sync, or products a build did not name): the API serves them.
 */
export async function replicaFor(productIds: readonly string[]): Promise<ProductReplica | undefined> {
  const replica = await siteReplica()
  if (replica === undefined) return undefined
  const checkpoint = await replica.reviews.getCheckpoint()
  if (checkpoint?.completedAt === undefined) return undefined
  if (checkpoint.products !== undefined) {
    const held = new Set(checkpoint.products)
    if (!productIds.every((id) => held.has(id))) return undefined
  }
  return replica
}
