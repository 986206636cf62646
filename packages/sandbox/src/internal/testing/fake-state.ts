import type { SandboxState } from '../context.ts'

/**
 * A small in-memory {@link SandboxState} for route unit tests: empty data, fixed settings for
 * `websiteId`, no live tokens; `overrides` supplies the data (and behaviour) a test needs.
 */
export function fakeState(
  websiteId: string,
  overrides: Partial<Omit<SandboxState, 'settings'>> = {},
): SandboxState {
  return {
    settings: {
      seed: 1,
      clientId: 'id',
      clientSecret: 'secret',
      websiteId,
      genesisSecret: 'g',
      rateLimit: 0,
      tokenTtl: 3600,
      products: 60,
      reviews: 3000,
      organizationName: 'Org',
    },
    products: [],
    productReviews: [],
    brandReviews: [],
    shops: [],
    purchaseEvents: [],
    tokenAudience: () => undefined,
    uuid: () => '',
    ...overrides,
  }
}
