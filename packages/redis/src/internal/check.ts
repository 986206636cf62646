import { ValidationError } from '@verified-reviews/core'

/** `value` when it is a finite number above 0; a `ValidationError` naming `field` otherwise. */
export function positive(field: string, value: number, unit = 'milliseconds'): number {
  if (!(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
    throw new ValidationError([
      { field, message: `must be a positive number of ${unit}, got ${String(value)}` },
    ])
  }
  return value
}
