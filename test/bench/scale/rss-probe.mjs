// Preloaded (NODE_OPTIONS=--import) into every Node process a benchmark step starts: at exit, each
// process writes its own peak RSS (`process.resourceUsage().maxRSS`, KiB) to VR_BENCH_RSS_DIR, and the
// time it spent waiting for the API (VR_BENCH_API_ORIGIN): from sending a request to its answer's
// headers, overlapping requests counted once.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

const dir = process.env.VR_BENCH_RSS_DIR
const origin = process.env.VR_BENCH_API_ORIGIN
let apiMs = 0
let inFlight = 0
let since = 0

if (origin && typeof globalThis.fetch === 'function') {
  const fetch = globalThis.fetch
  globalThis.fetch = function probedFetch(input, init) {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input?.url
    if (typeof url !== 'string' || !url.startsWith(origin)) return fetch.call(this, input, init)
    if (inFlight++ === 0) since = performance.now()
    const done = () => {
      if (--inFlight === 0) apiMs += performance.now() - since
    }
    const answer = fetch.call(this, input, init)
    answer.then(done, done)
    return answer
  }
}

if (dir) {
  process.once('exit', () => {
    try {
      const { maxRSS } = process.resourceUsage()
      writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify({ pid: process.pid, maxRSS, apiMs }))
    } catch {
      // A probe never changes how the process ends.
    }
  })
}
