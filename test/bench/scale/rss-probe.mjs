// Preloaded (NODE_OPTIONS=--import) into every Node process a benchmark step starts: each process writes
// to VR_BENCH_RSS_DIR its own peak RSS (`process.resourceUsage().maxRSS`, KiB), its CPU time (user and
// system, all its threads, milliseconds) and the time it spent
// waiting for the API (VR_BENCH_API_ORIGIN): from sending a request to its answer's headers, overlapping
// requests counted once. It writes at exit and every second, since a worker that is killed (Next.js's
// build workers) never sees its exit; not after each answer, which cost a build of 552 calls some 0.4 s
// of file writes that a build without calls (the baselines) does not make.
import { renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const dir = process.env.VR_BENCH_RSS_DIR
// What the process runs (its script's last two path segments), to tell the processes of a tree apart.
const script = (process.argv[1] ?? '').split(/[\\/]/).slice(-2).join('/')
const origin = process.env.VR_BENCH_API_ORIGIN
let apiMs = 0
let inFlight = 0
let since = 0

function write() {
  if (!dir) return
  try {
    const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage()
    // Through a temporary file: a process killed while writing leaves its last complete figures.
    const file = join(dir, `${process.pid}.json`)
    const cpuMs = (userCPUTime + systemCPUTime) / 1000
    writeFileSync(`${file}.tmp`, JSON.stringify({ pid: process.pid, maxRSS, apiMs, cpuMs, script }))
    renameSync(`${file}.tmp`, file)
  } catch {
    // A probe never changes how the process ends.
  }
}

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
  setInterval(write, 1000).unref()
  process.once('exit', write)
}
