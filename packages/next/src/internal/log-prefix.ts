/** Prefix of every line this package writes to a log, at build time and on the server. */
export const LOG_PREFIX = '[@verified-reviews/next]'
