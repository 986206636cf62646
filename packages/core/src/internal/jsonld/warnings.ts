import { remembered } from '../base/remembered.ts'

/** Where development warnings of the JSON-LD builders go. */
export interface JsonLdLogger {
  warn(message: string): void
}

/** Messages already given, per logger, so that a page rendered a thousand times warns once. */
const given = new WeakMap<JsonLdLogger, Set<string>>()

/** True unless `NODE_ENV` is `production`; read through `globalThis` so that runtimes without `process` work. */
export function isDevelopment(): boolean {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
  return process?.env?.NODE_ENV !== 'production'
}

/** A function that passes each distinct message to `logger` once, and only in development. */
export function createWarner(logger: JsonLdLogger = console): (message: string) => void {
  return (message) => {
    if (!isDevelopment()) return
    const messages = remembered(given, logger, () => new Set<string>())
    if (messages.has(message)) return
    messages.add(message)
    logger.warn(`[@verified-reviews/core/jsonld] ${message}`)
  }
}
