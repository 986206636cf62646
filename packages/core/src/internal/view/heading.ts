/** Level of a heading element, `h1` to `h6`. */
export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6

/** The level below `level`, kept at `h6` at most. */
export function subLevel(level: HeadingLevel): HeadingLevel {
  return level < 6 ? ((level + 1) as HeadingLevel) : 6
}

/** Class names joined by spaces, leaving out the empty ones. */
export function classNames(...names: ReadonlyArray<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ')
}
