import type { IncomingHttpHeaders } from 'node:http'
import { HttpError } from './http-error.ts'

/** Names every sandbox answers its `/__sandbox/` routes on, whatever it was bound to. */
const LOOPBACK_HOSTS = ['127.0.0.1', '::1', 'localhost'] as const

/** Addresses that mean "every interface": never a name a client addresses the sandbox by. */
const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0'])

/** A host name or an IP address, without brackets: what `allowedHosts` and `--host` may name. */
const HOST_NAME =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|[0-9a-f:.]*:[0-9a-f:.]*)$/

/** `name`, `name:port`, `[v6]` or `[v6]:port`, as a `Host` header carries it. */
const HOST_HEADER = /^(?:(?<name>[A-Za-z0-9.-]+)|\[(?<v6>[0-9A-Fa-f:.]+)\])(?::\d{1,5})?$/

/** Whether the server listens on every interface (`0.0.0.0`, `::`). */
export function isWildcardAddress(address: string): boolean {
  return WILDCARD_ADDRESSES.has(normalizeHost(address))
}

/** A host in the form the checks compare: lower case, IPv6 without brackets. */
export function normalizeHost(host: string): string {
  const lower = host.trim().toLowerCase()
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower
}

/** Whether `host` is a host name or an IP address (IPv6 with or without brackets), port-less. */
export function isHostName(host: string): boolean {
  return HOST_NAME.test(normalizeHost(host))
}

/** The host of a `Host` header, normalized; undefined when the header is missing or malformed. */
export function hostOfHeader(header: string | undefined): string | undefined {
  if (header === undefined) return undefined
  const match = HOST_HEADER.exec(header)
  if (!match?.groups) return undefined
  return normalizeHost(match.groups.name ?? match.groups.v6 ?? '')
}

/**
 * The hosts a `Host` header may name on `/__sandbox/`: loopback, plus the address the sandbox was
 * bound to and the one it listens on (unless a wildcard), plus the `allowedHosts` option.
 */
export function allowedAdminHosts(
  configuredHost: string,
  listeningAddress: string,
  allowedHosts: readonly string[],
): ReadonlySet<string> {
  const hosts = new Set<string>(LOOPBACK_HOSTS)
  for (const host of [configuredHost, listeningAddress]) {
    if (!isWildcardAddress(host)) hosts.add(normalizeHost(host))
  }
  for (const host of allowedHosts) hosts.add(normalizeHost(host))
  return hosts
}

/** The media type of a `Content-Type` header: lower case, without parameters. */
function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}

/** Whether an `Origin` header names the origin the request was sent to (`http://` + its `Host`). */
function isOwnOrigin(origin: string, host: string): boolean {
  try {
    return new URL(origin).origin === new URL(`http://${host}`).origin
  } catch {
    return false
  }
}

/**
 * Why a request to a `/__sandbox/` route must be refused, or undefined when it may go on.
 *
 * A web page must not drive the sandbox: a page on another site cannot send
 * `Content-Type: application/json` without a CORS preflight (which the sandbox never approves), a
 * DNS-rebinding page reaches the sandbox under its own host name, and a cross-site request carries
 * its page's `Origin`.
 */
export function adminRefusal(
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  allowedHosts: ReadonlySet<string>,
): HttpError | undefined {
  const hostHeader = headers.host
  const host = hostOfHeader(hostHeader)
  if (hostHeader === undefined || host === undefined || !allowedHosts.has(host)) {
    const named = hostHeader === undefined ? 'no Host header' : `Host ${JSON.stringify(hostHeader)}`
    return new HttpError(
      403,
      'forbidden',
      `${path} answers only requests addressed to this machine (localhost, 127.0.0.1, [::1], the bound address or allowedHosts), not ${named}`,
      { field: 'host' },
    )
  }
  const origin = headers.origin
  if (origin !== undefined && !isOwnOrigin(origin, hostHeader)) {
    return new HttpError(
      403,
      'forbidden',
      `${path} refuses requests sent by a page of another origin (Origin ${JSON.stringify(origin)})`,
      { field: 'origin' },
    )
  }
  if (method === 'POST') {
    const type = mediaType(headers['content-type'])
    if (type !== 'application/json') {
      return new HttpError(
        415,
        'unsupported_media_type',
        `POST ${path} takes Content-Type: application/json, not ${type === '' ? 'none' : type}`,
        { field: 'content-type' },
      )
    }
  }
  return undefined
}
