/**
 * A child of the `astro` step: `astro build` of the fixture site in `--root` (a copy of
 * test/bench/fixtures/astro-scale with the packages of ours installed in its node_modules) with the
 * integration, from that installation, quietly; with `--plain`, a site without the integration (the
 * baseline without reviews, astro-scale-plain, or the hand-written one, astro-scale-hand). Run without
 * the source condition: the installed packages are loaded as a shop's site loads them, from their dist.
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { ROOT } from './lib.ts'

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    'out-dir': { type: 'string' },
    'cache-dir': { type: 'string' },
    plain: { type: 'boolean', default: false },
  },
})
const root = values.root as string
// Astro is a dependency of the integration's package, not of the tests': it is loaded from there.
const require = createRequire(join(ROOT, 'packages/astro/package.json'))
const { build } = (await import(pathToFileURL(require.resolve('astro')).href)) as {
  build(config: Record<string, unknown>): Promise<void>
}
const integrations = []
if (!values.plain) {
  // The site's own installation of the integration (see `install` in astro-step.ts).
  const site = createRequire(join(root, 'package.json'))
  const { default: verifiedReviews } = (await import(
    pathToFileURL(site.resolve('@verified-reviews/astro')).href
  )) as { default: () => unknown }
  integrations.push(verifiedReviews())
}

await build({
  root,
  outDir: values['out-dir'] as string,
  cacheDir: values['cache-dir'] as string,
  site: 'https://shop.example',
  logLevel: 'warn',
  integrations,
})
