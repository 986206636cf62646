import type { ProductReplica } from '@verified-reviews/core/internal'
import { copyReplicaFromFile } from '@verified-reviews/core/sync'
import { handedReplicaModule } from './build-handoff.ts'
import { LOG_PREFIX } from './log-prefix.ts'

export { BUILD_REPLICA_VARIABLE } from './build-handoff.ts'

/**
 * What the default export of the module named by `__VERIFIED_REVIEWS_BUILD_REPLICA` (an ES module with
 * no top-level `await`) gives, when called once in the build process that fetched the build data: the replica the servers will read (the same
 * keys as theirs), where it is for the log, and how to let it go.
 */
export interface BuildReplicaTarget {
  readonly replica: ProductReplica
  /** Where the replica is, for the build log, with no secret (`Redis redis://host:6379, keys vr:`). */
  readonly where: string
  /** Closes what the module opened. */
  close(): Promise<void>
}

/**
 * The ES module at `path` (a file of the user's dependencies, named at run time), loaded by Node.js. This
 * file is bundled into the build's pages, and a bundler replaces an `import()` of a path it cannot see
 * with one that throws `MODULE_NOT_FOUND` (tsc moves the comments that would tell it to leave the call
 * alone inside a helper of its own): then Node.js's `require`, which loads an ES module without top-level
 * `await`, and which no bundler sees when it comes from `process.getBuiltinModule`. Where nothing was
 * bundled (Node.js alone, a test runner), the `import()` loads it.
 */
async function loadAtRunTime(path: string): Promise<unknown> {
  const { pathToFileURL } = await import('node:url')
  try {
    return await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ pathToFileURL(path).href)
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error
    const { createRequire } = process.getBuiltinModule('node:module')
    return createRequire(path)(path)
  }
}

/**
 * Copies the build's review store (`file`) into the replica that the servers share, when a config
 * wrapper named one (`withRedisCache` with `REDIS_URL`): the summaries, then the reviews a few hundred per
 * write, the checkpoint last, and only when that replica is empty or older than the build's sync; then,
 * by the same rules, the brand and shop statistics and reviews of a build with `brandReviews`. Says
 * in one line where the replica went and how many reviews; a failure is said too, and the build goes on:
 * the pages have their reviews, and the servers fill the replica from the build's file where they have
 * it, else from the API at the first revalidation.
 */
export async function writeBuildReplica(file: string): Promise<void> {
  const module = handedReplicaModule()
  if (module === undefined) return
  let target: BuildReplicaTarget | undefined
  try {
    const loaded = (await loadAtRunTime(module)) as { default: () => BuildReplicaTarget }
    target = loaded.default()
    const copy = await copyReplicaFromFile(file, target.replica, { when: 'older' })
    console.log(
      copy.outcome === 'copied'
        ? `${LOG_PREFIX} The build wrote the replica the servers read into ${target.where}: ` +
            `${copy.reviews.toLocaleString('en-US')} reviews, ${copy.summaries.toLocaleString('en-US')} summaries.`
        : copy.outcome === 'current'
          ? `${LOG_PREFIX} The replica in ${target.where} holds a sync as new as the build's, or newer: left as it is.`
          : `${LOG_PREFIX} The build holds no review store to write into ${target.where}.`,
    )
    // The brand part, which only a build with `brandReviews` holds: said when there is one.
    if (copy.brands !== undefined && copy.brands.outcome !== 'no-source')
      console.log(
        copy.brands.outcome === 'copied'
          ? `${LOG_PREFIX} The build wrote the brand part of the replica into ${target.where}: ` +
              `${copy.brands.reviews.toLocaleString('en-US')} brand and shop reviews, ` +
              `${copy.brands.ratings.toLocaleString('en-US')} statistics.`
          : `${LOG_PREFIX} The brand part of the replica in ${target.where} is as new as the build's, or newer: left as it is.`,
      )
  } catch (error) {
    console.error(
      `${LOG_PREFIX} The build could not write the replica the servers read` +
        `${target === undefined ? '' : ` into ${target.where}`}; they fill it from the build's file where ` +
        'they have it (next start), else read the API until the revalidate route has synced it.',
      error,
    )
  } finally {
    await target?.close().catch(() => undefined)
  }
}
