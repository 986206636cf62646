import { addBrandReviews, addProductReviews, editProductReview, removeProductReview } from '../additions.ts'
import type { Route, SandboxRequest } from '../context.ts'
import { parseFaultRules } from '../faults.ts'
import { HttpError } from '../http-error.ts'
import { renderMedia } from '../media.ts'
import type { SandboxStore } from '../state.ts'
import { toPublishedBrandReview, toPublishedProductReview } from '../views.ts'

const NO_CONTENT = { status: 204 }

function admin(
  method: Route['method'],
  path: string,
  handle: (req: SandboxRequest) => ReturnType<Route['handle']>,
): Route {
  return {
    method,
    pattern: new RegExp(`^/__sandbox/${path}$`),
    operation: 'admin',
    rateLimited: false,
    handle,
  }
}

function readJson(req: SandboxRequest): unknown {
  try {
    return JSON.parse(req.body.toString('utf8'))
  } catch {
    throw new HttpError(400, 'invalid_body', 'the body must be JSON', { field: 'body' })
  }
}

/** The `/__sandbox/` routes that drive the state: additions, statistics, faults, tokens, reset, media. */
export function adminRoutes(store: SandboxStore): Route[] {
  return [
    admin('POST', 'product-reviews', (req) => ({
      status: 201,
      body: addProductReviews(store, req.body).map((r) => toPublishedProductReview(r, req.origin)),
    })),
    {
      method: 'POST',
      pattern: /^\/__sandbox\/product-reviews\/(?<id>[^/]+)$/,
      operation: 'admin',
      rateLimited: false,
      handle: (req, _state, params) => ({
        status: 200,
        body: toPublishedProductReview(
          editProductReview(store, decodeURIComponent(params.id ?? ''), req.body),
          req.origin,
        ),
      }),
    },
    {
      method: 'DELETE',
      pattern: /^\/__sandbox\/product-reviews\/(?<id>[^/]+)$/,
      operation: 'admin',
      rateLimited: false,
      handle: (_req, _state, params) => {
        removeProductReview(store, decodeURIComponent(params.id ?? ''))
        return NO_CONTENT
      },
    },
    admin('POST', 'brand-reviews', (req) => ({
      status: 201,
      body: addBrandReviews(store, req.body).map(toPublishedBrandReview),
    })),
    admin('GET', 'purchase-events', () => ({ status: 200, body: store.purchaseEvents })),
    admin('GET', 'stats', () => ({ status: 200, body: store.stats() })),
    admin('DELETE', 'stats', () => {
      store.clearStats()
      return NO_CONTENT
    }),
    admin('POST', 'reset', () => {
      store.reset()
      return NO_CONTENT
    }),
    admin('POST', 'faults', (req) => {
      store.faults.set(parseFaultRules(readJson(req)))
      return { status: 200, body: store.faults.list() }
    }),
    admin('GET', 'faults', () => ({ status: 200, body: store.faults.list() })),
    admin('DELETE', 'faults', () => {
      store.faults.clear()
      return NO_CONTENT
    }),
    admin('POST', 'tokens/expire', () => {
      store.expireTokens()
      return NO_CONTENT
    }),
    {
      method: 'GET',
      pattern: /^\/__sandbox\/media\/(?<name>[^/]+)$/,
      operation: 'media',
      rateLimited: false,
      handle(_req, _state, params) {
        const svg = renderMedia(params.name ?? '')
        if (svg === undefined) throw new HttpError(404, 'not_found', `no media named ${params.name}`)
        return {
          status: 200,
          headers: { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400, immutable' },
          body: svg,
        }
      },
    },
  ]
}
