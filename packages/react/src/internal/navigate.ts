/** Follows a link as the browser would have without the island (its own module, so tests can watch it). */
export function navigate(href: string): void {
  window.location.assign(href)
}
