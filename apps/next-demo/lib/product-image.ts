import type { Product } from './catalogue'

/** The colours the catalogue's variants name, for the product pictures. */
const SWATCHES: Readonly<Record<string, string>> = {
  Black: '#222326',
  Blue: '#2f5fa7',
  Charcoal: '#3d3f44',
  'Cherry Red': '#a3202f',
  Coral: '#f08a6c',
  'Forest Green': '#2f5d3a',
  Ivory: '#f3ecd9',
  'Midnight Blue': '#1d2a4d',
  Mint: '#a8dcc4',
  Natural: '#d9c7a7',
  Navy: '#1f3354',
  'Off-White': '#f5f3ee',
  Sage: '#9cae8d',
  Sand: '#d8c3a0',
  'Stone Grey': '#8b8d8f',
  Terracotta: '#c0603d',
  White: '#fafafa',
}

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char)
}

/** Whether dark text reads better than light text on `hex`. */
function isLight(hex: string): boolean {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16))
  return 0.299 * (r ?? 0) + 0.587 * (g ?? 0) + 0.114 * (b ?? 0) > 150
}

/**
 * The product's picture, as a shop's catalogue would have one: an 800 × 800 SVG swatch of its colour
 * with its name. Made up for the demo, served at `product.image`.
 */
export function productImageSvg(product: Pick<Product, 'name' | 'brand' | 'color'>): string {
  const background = (product.color === undefined ? undefined : SWATCHES[product.color]) ?? '#c9b9a6'
  const ink = isLight(background) ? '#1c1f24' : '#ffffff'
  const [item = product.name, variant = ''] = product.name.split(' – ')
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800">',
    `<title>${escapeXml(product.name)}</title>`,
    `<rect width="800" height="800" fill="${background}"/>`,
    `<g fill="${ink}" font-family="system-ui, sans-serif" text-anchor="middle">`,
    `<text x="400" y="380" font-size="56" font-weight="700">${escapeXml(item)}</text>`,
    `<text x="400" y="450" font-size="40">${escapeXml(variant)}</text>`,
    `<text x="400" y="720" font-size="32">${escapeXml(product.brand)}</text>`,
    '</g></svg>',
  ].join('')
}
