/**
 * A child of the `astro` step: `astro build` of the fixture site in `--root` (a copy of
 * test/bench/fixtures/astro-scale with node_modules links) with the integration, quietly; with `--plain`,
 * the baseline site without reviews (astro-scale-plain) without the integration.
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import verifiedReviews from '../../../packages/astro/src/index.ts'
import { sourceCondition } from '../../fixtures/source-condition.ts'
import { ROOT } from './lib.ts'

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    'out-dir': { type: 'string' },
    'cache-dir': { type: 'string' },
    plain: { type: 'boolean', default: false },
  },
})
// Astro is a dependency of the integration's package, not of the tests': it is loaded from there.
const require = createRequire(join(ROOT, 'packages/astro/package.json'))
const { build } = (await import(pathToFileURL(require.resolve('astro')).href)) as {
  build(config: Record<string, unknown>): Promise<void>
}

await build({
  root: values.root as string,
  outDir: values['out-dir'] as string,
  cacheDir: values['cache-dir'] as string,
  site: 'https://shop.example',
  logLevel: 'warn',
  integrations: values.plain ? [] : [verifiedReviews()],
  vite: { plugins: [sourceCondition] },
})
