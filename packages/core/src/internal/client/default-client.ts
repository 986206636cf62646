import { processState } from '../base/process-state.ts'
import type { ClientOptions } from '../settings/client-options.ts'
import {
  type EnvironmentClientOptions,
  processEnvironment,
  readEnvironment,
} from '../settings/environment.ts'
import { resolveSettings } from '../settings/settings.ts'
import { clientOf, type VerifiedReviewsClient } from './client.ts'

/** Options of {@link defaultClient}: those of `createClient`, but the ones the environment gives. */
export interface DefaultClientOptions extends Omit<ClientOptions, keyof EnvironmentClientOptions> {
  /**
   * Names this default client, so that clients configured differently (a framework's cached and
   * uncached ones) are kept apart. Calls with the same name share one client.
   * @default 'default'
   */
  name?: string
}

interface Held {
  key: string
  client: VerifiedReviewsClient
}

/** The clients of {@link defaultClient} by name, one map per process (see `process-state.ts`). */
const held = () => processState(Symbol.for('verified-reviews.default-clients'), () => new Map<string, Held>())

/**
 * The client of this process configured from the environment (see {@link readEnvironment}): one per
 * `name`, shared by every caller so that they share its token and rate budget, and built again when
 * the environment changes. The options of the call that builds it hold until then; later calls with
 * the same name and environment get the same client whatever options they pass. The React, Next.js
 * and Astro components use it when they are given no client.
 *
 * @example
 * const vr = defaultClient() // VERIFIED_REVIEWS_CLIENT_ID, _CLIENT_SECRET, _ORIGIN…
 */
export function defaultClient(options: DefaultClientOptions = {}): VerifiedReviewsClient {
  const { name = 'default', ...clientOptions } = options
  const env = processEnvironment()
  // Keyed by every variable, so that a change of any builds the client again (and a bad one throws, named).
  const key = JSON.stringify(readEnvironment(env))
  const clients = held()
  const current = clients.get(name)
  if (current?.key === key) return current.client
  const client = clientOf(resolveSettings(clientOptions, env))
  clients.set(name, { key, client })
  return client
}
