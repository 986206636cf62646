import { OPERATIONS, type Operation } from './context.ts'
import { HttpError } from './http-error.ts'
import { Random } from './random.ts'

/** A fault rule as `POST /__sandbox/faults` takes it. */
export interface FaultRule {
  /** The operation hit, or every operation. */
  operation: Operation | '*'
  /** Answer this status with a JSON error instead of the real answer. */
  status?: number
  /** The chance a matching request is hit. */
  rate: number
  /** Delay the answer by this many milliseconds. */
  latencyMs?: number
  /** Declare the full Content-Length, send half the body, then close the connection. */
  truncate?: boolean
  /** Hit at most this many requests. */
  count?: number
}

const RULE_MEMBERS = new Set(['operation', 'status', 'rate', 'latencyMs', 'truncate', 'count'])
const MAX_LATENCY_MS = 120_000

/** The error code that goes with an injected status. */
export function errorCodeFor(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_parameter'
    case 401:
      return 'unauthorized'
    case 403:
      return 'forbidden'
    case 404:
      return 'not_found'
    case 405:
      return 'method_not_allowed'
    case 406:
      return 'not_acceptable'
    case 413:
      return 'invalid_body'
    case 429:
      return 'rate_limited'
    default:
      return status >= 500 ? 'server_error' : 'invalid_parameter'
  }
}

function invalid(index: number, member: string, message: string): HttpError {
  return new HttpError(400, 'invalid_body', `rule ${index}: ${member} ${message}`, {
    field: `[${index}].${member}`,
  })
}

/** Validates the body of `POST /__sandbox/faults`; throws a 400 naming the first bad member. */
export function parseFaultRules(body: unknown): FaultRule[] {
  if (!Array.isArray(body)) {
    throw new HttpError(400, 'invalid_body', 'the body must be a JSON array of fault rules', {
      field: 'body',
    })
  }
  return body.map((raw, index): FaultRule => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new HttpError(400, 'invalid_body', `rule ${index} must be an object`, { field: `[${index}]` })
    }
    const value = raw as Record<string, unknown>
    for (const member of Object.keys(value)) {
      if (!RULE_MEMBERS.has(member)) throw invalid(index, member, 'is not a member of a fault rule')
    }
    const { operation, status, rate = 1, latencyMs, truncate, count } = value
    if (operation !== '*' && !(OPERATIONS as readonly unknown[]).includes(operation)) {
      throw invalid(index, 'operation', `must be "*" or one of ${OPERATIONS.join(', ')}`)
    }
    if (
      status !== undefined &&
      !(Number.isInteger(status) && (status as number) >= 400 && (status as number) <= 599)
    ) {
      throw invalid(index, 'status', 'must be an integer from 400 to 599')
    }
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1))
      throw invalid(index, 'rate', 'must be a number from 0 to 1')
    if (
      latencyMs !== undefined &&
      !(Number.isInteger(latencyMs) && (latencyMs as number) >= 0 && (latencyMs as number) <= MAX_LATENCY_MS)
    ) {
      throw invalid(index, 'latencyMs', `must be an integer from 0 to ${MAX_LATENCY_MS}`)
    }
    if (truncate !== undefined && typeof truncate !== 'boolean')
      throw invalid(index, 'truncate', 'must be a boolean')
    if (count !== undefined && !(Number.isInteger(count) && (count as number) >= 1)) {
      throw invalid(index, 'count', 'must be an integer of at least 1')
    }
    if (status === undefined && latencyMs === undefined && truncate !== true) {
      throw invalid(index, 'status', 'is required unless the rule has latencyMs or truncate: true')
    }
    const rule: FaultRule = { operation: operation as FaultRule['operation'], rate }
    if (status !== undefined) rule.status = status as number
    if (latencyMs !== undefined) rule.latencyMs = latencyMs as number
    if (truncate !== undefined) rule.truncate = truncate
    if (count !== undefined) rule.count = count as number
    return rule
  })
}

interface ActiveRule {
  rule: FaultRule
  hits: number
}

/** Holds the fault rules and decides, with seeded randomness, which requests they hit. */
export class FaultInjector {
  #rules: ActiveRule[] = []
  #rng: Random
  readonly #seed: number

  constructor(seed: number) {
    this.#seed = seed
    this.#rng = new Random(seed, 'faults')
  }

  set(rules: FaultRule[]): void {
    this.#rules = rules.map((rule) => ({ rule, hits: 0 }))
  }

  /** The rules with how many requests each has hit so far. */
  list(): (FaultRule & { hits: number })[] {
    return this.#rules.map(({ rule, hits }) => ({ ...rule, hits }))
  }

  /** Clears the rules and restarts the random sequence, as after a reset. */
  clear(): void {
    this.#rules = []
    this.#rng = new Random(this.#seed, 'faults')
  }

  /** The first rule that hits a request of `operation`, counting the hit; undefined if none does. */
  pick(operation: Operation): FaultRule | undefined {
    for (const active of this.#rules) {
      const { rule } = active
      if (rule.operation !== '*' && rule.operation !== operation) continue
      if (rule.count !== undefined && active.hits >= rule.count) continue
      if (rule.rate < 1 && !(this.#rng.next() < rule.rate)) continue
      active.hits++
      return rule
    }
    return undefined
  }
}
