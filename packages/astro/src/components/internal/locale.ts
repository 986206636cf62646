import { shared } from '../../internal/shared.ts'

/**
 * The language of a component: its `locale` prop, else the page's locale from Astro's i18n routing
 * (`Astro.currentLocale`), else the integration's `locale` option, else English.
 */
export function componentLocale(given: string | undefined, current: string | undefined): string {
  return given ?? current ?? shared().locale ?? 'en'
}
