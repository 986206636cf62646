/**
 * Whether this process is rendering pages for `next build` (Next.js sets `NEXT_PHASE` in every build
 * worker). A module of its own, so that an edge route can ask without importing the build data.
 */
export function isBuildPhase(): boolean {
  return process.env.NEXT_PHASE === 'phase-production-build'
}
