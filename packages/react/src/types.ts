/** Level of a heading element, `h1` to `h6`. */
export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6
