// The layers of core's sources, from the bottom (index 0) to the top. A file of a layer may import the
// files of its own layer and of the layers below it, never those above, `import type` included:
// `pnpm lint:deps` enforces it (the `core-layers` rules of .dependency-cruiser.mjs), and
// scripts/check-core-layers.mjs checks that every file of packages/core/src belongs to exactly one layer.
// Tests are placed like the files they test but may import from any layer (nothing imports a test).
// The docs' architecture page draws the picture from `name` and `holds`.

/**
 * @typedef {object} CoreLayer
 * @property {string} name The layer's name, its folder's name where it has one.
 * @property {string[]} paths Path prefixes from the repository's root: a file is in the layer when its
 *   path starts with one of them.
 * @property {string} holds One line: what the layer holds.
 */

/** @type {CoreLayer[]} */
export const CORE_LAYERS = [
  {
    name: 'base',
    paths: ['packages/core/src/internal/base/'],
    holds:
      'Errors, input checks, redaction and small helpers that know nothing of the APIs: single-flight, concurrency, SQLite, per-process state, the shared-store interfaces.',
  },
  {
    name: 'cache',
    paths: ['packages/core/src/internal/cache/'],
    holds: 'The cache store interface, the memory store and the read-through cache of GET answers.',
  },
  {
    name: 'types',
    paths: ['packages/core/src/types/'],
    holds:
      "The APIs' data shapes, the parameters of every operation, the table of operations and the options of one request.",
  },
  {
    name: 'i18n',
    paths: ['packages/core/src/internal/i18n/'],
    holds: 'Locales, message catalogs and number, date and text formatting.',
  },
  {
    name: 'display',
    paths: ['packages/core/src/internal/display/'],
    holds:
      "What the JSON-LD and the views both show of a review or a rating: the author's name, the translated text, a product group's rating, rating counts, safe page URLs.",
  },
  {
    name: 'jsonld',
    paths: ['packages/core/src/internal/jsonld/'],
    holds:
      'The JSON-LD builders (Product, ProductGroup, Organization), their checks, merge and serialization.',
  },
  {
    name: 'cursor',
    paths: ['packages/core/src/internal/cursor/'],
    holds:
      "A review list's query in a page URL (sort, rates, cursor) and the cursors that page through it: signed, continuation, the limits a client remembers.",
  },
  {
    name: 'transport',
    paths: ['packages/core/src/internal/transport/'],
    holds:
      'HTTP to the APIs: retries, timeouts, tokens, rate budgets, reading JSON answers and Link headers.',
  },
  {
    name: 'settings',
    paths: ['packages/core/src/internal/settings/'],
    holds: "The client's options, the environment variables and the API addresses, resolved into settings.",
  },
  {
    name: 'context',
    paths: ['packages/core/src/internal/context/'],
    holds:
      "What every operation of the resources goes through: the client's context, per-call options, query strings, pages.",
  },
  {
    name: 'purchase-events',
    paths: ['packages/core/src/internal/purchase-events/'],
    holds:
      'The checks of a purchase event before it is sent: its fields, its purchase date, the form fields that name them.',
  },
  {
    name: 'resources',
    paths: ['packages/core/src/resources/'],
    holds:
      "The client's resources, one class per API area: products, brands, purchase events, legacy, Genesis (with the Genesis file parsers its static client reads).",
  },
  {
    name: 'client',
    paths: ['packages/core/src/internal/client/'],
    holds: 'createClient, the default client made from the environment, the credentials check.',
  },
  {
    name: 'sync',
    paths: ['packages/core/src/internal/sync/'],
    holds:
      'Review stores (memory, SQLite, replica file) and the engine that keeps them in step with the API.',
  },
  {
    name: 'catalog',
    paths: ['packages/core/src/internal/catalog/'],
    holds:
      "A site's whole catalog of summaries and reviews: the fetch plan, the local catalog, the replica sweep.",
  },
  {
    name: 'view',
    paths: ['packages/core/src/internal/view/'],
    holds:
      'What a product or brand section shows, from the API or a replica, and the parts each framework renders it with.',
  },
  {
    name: 'prefetch',
    paths: ['packages/core/src/internal/prefetch/'],
    holds:
      'Build-time data: the reviews catalog a build shares between its workers, the run lock, the build checks.',
  },
  {
    name: 'endpoint',
    paths: ['packages/core/src/internal/endpoint/'],
    holds: 'The public reviews endpoint: its query, its call slots and the public form of a review.',
  },
  {
    name: 'outbox',
    paths: ['packages/core/src/internal/outbox/'],
    holds: 'The purchase-event outbox: its stores (memory, SQLite) and the sender that drains it.',
  },
  {
    name: 'entries',
    paths: [
      'packages/core/src/index.ts',
      'packages/core/src/browser.ts',
      'packages/core/src/cache.ts',
      'packages/core/src/sync.ts',
      'packages/core/src/jsonld.ts',
      'packages/core/src/i18n.ts',
      'packages/core/src/siblings.ts',
      'packages/core/src/endpoint.ts',
      'packages/core/src/prefetch.ts',
      'packages/core/src/outbox.ts',
      'packages/core/src/styles.css',
      'packages/core/src/styles.test.ts',
      'packages/core/src/star.svg',
    ],
    holds: "The public entry files of core's package.json exports, which may import every layer.",
  },
]
