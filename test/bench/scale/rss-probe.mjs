// Preloaded (NODE_OPTIONS=--import) into every Node process a benchmark step starts: at exit, each
// process writes its own peak RSS (`process.resourceUsage().maxRSS`, KiB) to VR_BENCH_RSS_DIR.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

const dir = process.env.VR_BENCH_RSS_DIR
if (dir) {
  process.once('exit', () => {
    try {
      const { maxRSS } = process.resourceUsage()
      writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify({ pid: process.pid, maxRSS }))
    } catch {
      // A probe never changes how the process ends.
    }
  })
}
