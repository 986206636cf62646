// The apps of examples/ and what their test checks. `need` is what the pages need: for named products of
// the sandbox's seed, one call for their summaries and one for their reviews (fewer than 200 of them).
// `bound` is the most the build may make (issue 20: 3 product pages of an account of 3,000 reviews, at
// most 5 calls).

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
}

const PRODUCTS = ['SKU-001', 'SKU-002', 'SKU-003']

/** What every example shares: the 3 products, 2 calls needed, at most 5 made, stars and reviews shown. */
const PAGES = { products: PRODUCTS, need: 2, bound: 5, stars: true, minReviews: 5 }

export const EXAMPLES: ExampleSpec[] = [
  { name: 'next-cache-components', kind: 'next', output: '.next', noReact: false, ...PAGES },
  { name: 'next-isr', kind: 'next', output: '.next', noReact: false, ...PAGES },
  { name: 'astro-components', kind: 'static', output: 'dist', noReact: true, ...PAGES },
  { name: 'astro-loaders', kind: 'static', output: 'dist', noReact: true, ...PAGES },
  // Eleventy's data file reads the ratings and reviews the pages show (2 calls), then
  // `verified-reviews inject` reads the summaries and reviews of the JSON-LD (2 calls): 4 for a need of 2.
  { name: 'static-eleventy', kind: 'static', output: '_site', noReact: false, ...PAGES },
]
