import { Random } from './random.ts'

const SIZES = { small: 160, medium: 480, large: 1200 } as const
const NAME = /^(?<base>[a-z0-9][a-z0-9-]{0,79}?)-(?<size>small|medium|large)\.svg$/

/** A stored sandbox path made absolute on the origin the client used; other URLs stay as they are. */
export function absoluteUrl(url: string, origin: string): string {
  return url.startsWith('/') ? `${origin}${url}` : url
}

/**
 * The review image `name` (`<base>-<small|medium|large>.svg`) as an SVG: a product photo
 * stand-in whose colours and shapes derive from the base name, so every size shows the same picture.
 * Undefined for a name that is not an image name.
 */
export function renderMedia(name: string): string | undefined {
  const match = NAME.exec(name)
  if (!match?.groups) return undefined
  const base = match.groups.base as string
  const side = SIZES[match.groups.size as keyof typeof SIZES]
  const rng = new Random(base, 'media')
  const hue = rng.int(0, 359)
  const background = `hsl(${hue} 45% 88%)`
  const shape = `hsl(${(hue + 150) % 360} 40% 45%)`
  const accent = `hsl(${(hue + 40) % 360} 60% 60%)`
  const r = rng.int(18, 30)
  const cx = rng.int(35, 65)
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 100 100" role="img" aria-label="Review photo ${base}">`,
    `<rect width="100" height="100" fill="${background}"/>`,
    `<rect x="10" y="${rng.int(60, 72)}" width="80" height="30" rx="4" fill="${accent}" opacity="0.55"/>`,
    `<circle cx="${cx}" cy="${rng.int(38, 50)}" r="${r}" fill="${shape}"/>`,
    '</svg>',
  ].join('')
}
