import { createContext } from '../context/client-context.ts'
import type { ClientOptions } from '../settings/client-options.ts'
import { processEnvironment } from '../settings/environment.ts'
import { resolveSettings } from '../settings/settings.ts'

/**
 * Checks the credentials with one token request to the Published API's token endpoint, and no API
 * call: resolves when the endpoint issues a token, rejects as the first call of a client would
 * (`ValidationError` naming the missing `clientId` or `clientSecret` and its variable,
 * `AuthenticationError` when the endpoint refuses them, `APIConnectionError` when it cannot be
 * reached). A build runs it once at its start, so that it says at once why it will have no reviews.
 *
 * @param options client options; what they leave out comes from the environment (`resolveSettings`).
 *
 * @example
 * await verifyCredentials() // VERIFIED_REVIEWS_CLIENT_ID, _CLIENT_SECRET, _ORIGIN
 */
export async function verifyCredentials(options: ClientOptions = {}): Promise<void> {
  const context = createContext(resolveSettings(options, processEnvironment()))
  await context.published.token?.get()
}
