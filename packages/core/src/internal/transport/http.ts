// The transport's one door for the layers above it. One concept a file: error mapping (http-errors),
// abort helpers (http-abort), the time a request has in all (http-deadline), one attempt (http-attempt),
// rate-budget waits (http-budget), the retry loop (http-retry) and the cache in front of it all
// (http-cache, whose `send` is the entry); their shared types are in http-types, below them all.
export { send } from './http-cache.ts'
export type { CacheSettings, Fetch, HttpSettings, Incoming, Outgoing, Service } from './http-types.ts'
