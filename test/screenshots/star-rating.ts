/**
 * Screenshots of `StarRating` (a figure for the docs, not a test): the ratings 0, 2.3, 4.6 and 5 at 16, 20
 * and 32 px, in the light and dark schemes, then the same page in forced-colors mode, rendered by the React
 * component with `@verified-reviews/core/styles.css` (and the star file beside it) in Debian's Chromium.
 *
 *   pnpm --filter @verified-reviews/core --filter @verified-reviews/react run build
 *   node test/screenshots/star-rating.ts <name>
 *
 * writes apps/docs/src/assets/<name>.png and <name>-forced-colors.png, from the built packages (Node strips
 * the types of this file, not the JSX of the components' sources).
 */
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { StarRating } from '@verified-reviews/react'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { closeServer, launchChromium, listen } from '../e2e/support.ts'

const name = process.argv[2]
if (name === undefined || !/^[a-z0-9-]+$/.test(name)) throw new Error('usage: star-rating.ts <name>')

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const out = join(root, 'apps', 'docs', 'src', 'assets')
const styles = dirname(createRequire(import.meta.url).resolve('@verified-reviews/core/styles.css'))
const VALUES = [0, 2.3, 4.6, 5]
const SIZES = [16, 20, 32]

// Each size is the font size of the row: the stars are 1em high.
const rows = SIZES.map(
  (size) =>
    `<tr class="s${size}"><th>${size} px</th>${VALUES.map(
      (value) => `<td>${renderToStaticMarkup(createElement(StarRating, { value }))}</td>`,
    ).join('')}</tr>`,
).join('')
const table = (scheme: string) =>
  `<section class="vr-${scheme}"><h2>${scheme}</h2><table><tr><th></th>${VALUES.map((v) => `<th>${v}</th>`).join('')}</tr>${rows}</table></section>`
const page = `<!doctype html><html lang="en" class="vr-light"><head><meta charset="utf-8"><title>StarRating</title>
<link rel="stylesheet" href="/styles.css"><link rel="stylesheet" href="/page.css"></head>
<body>${table('light')}${table('dark')}</body></html>`
const pageCss = `body{margin:0;padding:12px;display:inline-flex;flex-direction:column;gap:12px;font:14px system-ui,sans-serif;background:#fff}
section{background:var(--vr-surface);color:var(--vr-text-color);border-radius:8px;padding:4px}
h2{font-size:14px;margin:4px 12px}table{border-spacing:12px 8px}th{font-weight:400;text-align:start;font-size:14px;white-space:nowrap}
${SIZES.map((size) => `.s${size} .vr-stars{font-size:${size}px}`).join('\n')}`

const server = createServer(async (req, res) => {
  const path = req.url ?? '/'
  if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page)
  if (path === '/page.css') return void res.writeHead(200, { 'content-type': 'text/css' }).end(pageCss)
  const file = /^\/([a-z.-]+\.(css|svg))$/.exec(path)
  if (file === null) return void res.writeHead(404).end()
  const body = await readFile(join(styles, file[1] as string)).catch(() => undefined)
  if (body === undefined) return void res.writeHead(404).end()
  res.writeHead(200, { 'content-type': file[2] === 'css' ? 'text/css' : 'image/svg+xml' }).end(body)
})

const origin = await listen(server)
const browser = await launchChromium()
try {
  const tab = await browser.newPage({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 })
  await tab.goto(origin, { waitUntil: 'networkidle' })
  await tab.locator('body').screenshot({ path: join(out, `${name}.png`) })
  await tab.emulateMedia({ forcedColors: 'active' })
  await tab.locator('body').screenshot({ path: join(out, `${name}-forced-colors.png`) })
  console.log(`wrote ${join(out, `${name}.png`)} and ${name}-forced-colors.png`)
} finally {
  await browser.close()
  await closeServer(server)
}
