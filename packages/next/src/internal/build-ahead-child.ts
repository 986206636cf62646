/**
 * The process that fetches the build's review data ahead of its pages, which `withVerifiedReviews` starts
 * once `next build` has loaded the config (`build-ahead.ts`). Its argument is the build folder that
 * `next build` empties before it compiles ('' when it empties nothing): it waits until that folder is
 * gone, then fetches into a new one, as the first build worker would have, while Next.js compiles. It
 * ends when the fetch is done or failed (the workers then fetch again and meet the failure themselves),
 * or when `next build` ends.
 */
import { existsSync } from 'node:fs'
import { fetchBuildDataAhead } from '../build-data.ts'
import { LOG_PREFIX } from './log-prefix.ts'

/** Milliseconds it waits for `next build` to empty the folder before it leaves the fetch to the pages. */
const EMPTYING_WAIT = 120_000
/** Milliseconds between two looks at the folder. */
const LOOK_EVERY = 20

// The channel to `next build` closes when it ends, or dies: nothing is left to fetch for.
process.on('disconnect', () => process.exit(0))

async function fetchOnceEmptied(folder: string): Promise<void> {
  const deadline = Date.now() + EMPTYING_WAIT
  while (folder !== '' && existsSync(folder)) {
    // Not emptied (another build mode): the pages fetch when they ask, as without this process.
    if (Date.now() > deadline) return
    await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY))
  }
  try {
    await fetchBuildDataAhead()
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    console.warn(`${LOG_PREFIX} The fetch ahead of the pages failed; the pages fetch again: ${why}`)
  }
}

await fetchOnceEmptied(process.argv[2] ?? '')
process.exit(0)
