/**
 * Size of the "More reviews" island (a figure, not a test): the built `@verified-reviews/react/client`
 * entry bundled for the browser by esbuild (minified, ES2020, gzip -9), once with only its own code
 * (React, SWR and the core as externals) and once with SWR and the core parts it uses (React external,
 * as every React page already loads it). Also says whether the message catalogue got in.
 *
 *   pnpm size:island   (builds core and react first)
 */
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build, type Metafile } from 'esbuild'

const require = createRequire(import.meta.url)
const packageDir = dirname(require.resolve('@verified-reviews/react/package.json'))
const entry = join(packageDir, 'dist', 'client.js')

interface Figures {
  label: string
  bytes: number
  gzip: number
  inputs: string[]
}

async function bundle(label: string, external: string[]): Promise<Figures> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    metafile: true,
    logLevel: 'silent',
    external,
    define: { 'process.env.NODE_ENV': '"production"' },
  })
  const code = result.outputFiles[0]?.contents ?? new Uint8Array()
  const metafile: Metafile = result.metafile
  // Modules that left code in the bundle; tree-shaken ones are read but weigh nothing.
  const inputs = Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path),
  )
  return { label, bytes: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength, inputs }
}

const react = ['react', 'react-dom', 'react/jsx-runtime']
const own = await bundle('own code (react, swr, core external)', [
  ...react,
  'swr',
  'swr/*',
  '@verified-reviews/core*',
])
const withSwr = await bundle('with SWR and the core parts it uses (react external)', react)

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
console.log(`Island: ${relative(process.cwd(), entry)}, esbuild minified, gzip -9\n`)
console.log('| bundle | minified | gzip |')
console.log('|---|---|---|')
for (const figures of [own, withSwr]) {
  console.log(`| ${figures.label} | ${kb(figures.bytes)} | ${kb(figures.gzip)} |`)
}

const coreInputs = withSwr.inputs
  .filter((input) => input.includes('/core/'))
  .map((input) => input.replace(/.*\/core\//, 'core/'))
const catalogue = withSwr.inputs.filter((input) => /i18n\/(catalog|messages)/.test(input))
console.log(`\nCore modules in the island: ${coreInputs.join(', ') || 'none'}`)
console.log(
  `Message catalogue in the island: ${catalogue.length === 0 ? 'no' : `yes (${catalogue.length} files)`}`,
)
