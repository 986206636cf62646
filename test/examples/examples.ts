// The apps of examples/ and what their test checks. `need` is what the pages need: for named products of
// the sandbox's seed, one call for their summaries and one for their reviews (fewer than 200 of them).
// `bound` is the most the build may make (issue 20: 3 product pages of an account of 3,000 reviews, at
// most 5 calls).

/** How the test runs an example under its framework's dev server (`npm run dev`). */
export interface DevSpec {
  /** The server, as the report names it. */
  server: 'next dev' | 'astro dev'
  /** The arguments after `npm run dev --` that make it listen on 127.0.0.1 at `port`. */
  args(port: number): string[]
  /** The page source the test edits while the server runs (a file of the product pages' route). */
  pageFile: string
}

export interface ExampleSpec {
  /** The folder under examples/. */
  name: string
  kind: 'next' | 'static'
  /** The product pages the example builds, at /products/<id>. */
  products: string[]
  /** The build's output folder (static kinds). */
  output: string
  need: number
  bound: number
  /** Whether the pages show the stars. */
  stars: boolean
  /** Review items each product page shows at least. */
  minReviews: number
  /** No React in node_modules nor in the output (the Astro examples). */
  noReact: boolean
  /** Its dev server, or why it has none of ours. */
  dev: DevSpec | { none: string }
  /**
   * The languages of its pages, set as its README says (`VERIFIED_REVIEWS_LANGUAGES` in its `.env`, which
   * the test writes): the build's store (`file`, from the example's folder) must keep the reviews in that
   * form, its checkpoint naming these languages.
   */
  languages?: { env: string; expected: string[]; file: string }
}

const PRODUCTS = ['SKU-001', 'SKU-002', 'SKU-003']

/**
 * Product pages requested under a dev server: each once, then again after an edit. Every example has 3,
 * so all of them; a dev server compiles each route once, so more pages would add little but time.
 */
export const DEV_PAGES = 3

/** What every example shares: the 3 products, 2 calls needed, at most 5 made, stars and reviews shown. */
const PAGES = { products: PRODUCTS, need: 2, bound: 5, stars: true, minReviews: 5 }

const NEXT_DEV: DevSpec = {
  server: 'next dev',
  args: (port) => ['-H', '127.0.0.1', '-p', String(port)],
  pageFile: 'app/products/[id]/page.tsx',
}

const ASTRO_DEV: DevSpec = {
  server: 'astro dev',
  args: (port) => ['--host', '127.0.0.1', '--port', String(port)],
  pageFile: 'src/pages/products/[id].astro',
}

export const EXAMPLES: ExampleSpec[] = [
  { name: 'next-cache-components', kind: 'next', output: '.next', noReact: false, dev: NEXT_DEV, ...PAGES },
  { name: 'next-isr', kind: 'next', output: '.next', noReact: false, dev: NEXT_DEV, ...PAGES },
  {
    name: 'astro-components',
    kind: 'static',
    output: 'dist',
    noReact: true,
    dev: ASTRO_DEV,
    // The integration keeps its store in Astro's cache folder (node_modules/.astro by default).
    languages: {
      env: 'fr, en',
      expected: ['en', 'fr'],
      file: 'node_modules/.astro/verified-reviews/product-reviews.sqlite',
    },
    ...PAGES,
  },
  { name: 'astro-loaders', kind: 'static', output: 'dist', noReact: true, dev: ASTRO_DEV, ...PAGES },
  // Eleventy's data file reads the ratings and reviews the pages show (2 calls), then
  // `verified-reviews inject` reads the summaries and reviews of the JSON-LD (2 calls): 4 for a need of 2.
  {
    name: 'static-eleventy',
    kind: 'static',
    output: '_site',
    noReact: false,
    dev: {
      none:
        "`eleventy --serve` (its `npm start`) is Eleventy's own server, and the JSON-LD comes from " +
        '`verified-reviews inject` after a build',
    },
    ...PAGES,
  },
]

/**
 * An example that is a script a shop runs once, not a site: installed the same way, then its npm scripts
 * run in turn against the sandbox (the last one is the script itself).
 */
export interface ScriptExampleSpec {
  /** The folder under examples/. */
  name: string
  /** The npm scripts run in turn; each must exit with 0. */
  scripts: string[]
  /** A line the output of the last must hold, as its last line. */
  lastLine: RegExp
  /** The JSON files it writes: arrays of at least `min` records, each with every one of `fields`. */
  writes: { file: string; min: number; fields: string[] }[]
  /** The API calls (token requests apart) the last script makes, by operation of the sandbox. */
  calls: Record<string, number>
}

export const SCRIPT_EXAMPLES: ScriptExampleSpec[] = [
  // Three Genesis calls as the shop makes them today, and the three Published calls that replace them.
  {
    name: 'migrate-genesis',
    scripts: ['typecheck', 'migrate'],
    lastLine: /^ok: the Published calls give what the Genesis calls gave$/,
    writes: [
      {
        file: 'published/reviews.json',
        min: 15,
        fields: ['review_id', 'review_rate', 'review_content', 'product_variation_id', 'publish_date'],
      },
      { file: 'published/ratings.json', min: 3, fields: ['product_variation_id', 'average', 'count_total'] },
      { file: 'published/shops.json', min: 1, fields: ['shop_key', 'count_total_since_creation', 'average'] },
    ],
    calls: {
      'genesis.product': 2,
      'genesis.static.shops': 1,
      'products.reviews.list': 1,
      'products.ratings.list': 1,
      'brands.list': 1,
    },
  },
]
