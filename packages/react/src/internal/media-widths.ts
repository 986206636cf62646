/** Pixel widths assumed for the `small`, `medium` and `large` variants of review images (`srcset`). */
export interface MediaWidths {
  small: number
  medium: number
  large: number
}

/** Widths assumed when none are given: the API does not state the variants' sizes. */
export const DEFAULT_MEDIA_WIDTHS: Readonly<MediaWidths> = Object.freeze({
  small: 200,
  medium: 600,
  large: 1200,
})

/** Edge of the square image thumbnails, in CSS pixels, when none is given. */
export const DEFAULT_THUMBNAIL_SIZE = 96
