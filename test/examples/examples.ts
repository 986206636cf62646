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

export const EXAMPLES: ExampleSpec[] = [
  {
    name: 'next-cache-components',
    kind: 'next',
    products: PRODUCTS,
    output: '.next',
    need: 2,
    bound: 5,
    stars: true,
    minReviews: 5,
    noReact: false,
  },
  {
    name: 'next-isr',
    kind: 'next',
    products: PRODUCTS,
    output: '.next',
    need: 2,
    bound: 5,
    stars: true,
    minReviews: 5,
    noReact: false,
  },
  {
    name: 'astro-components',
    kind: 'static',
    products: PRODUCTS,
    output: 'dist',
    need: 2,
    bound: 5,
    stars: true,
    minReviews: 5,
    noReact: true,
  },
  {
    name: 'astro-loaders',
    kind: 'static',
    products: PRODUCTS,
    output: 'dist',
    need: 2,
    bound: 5,
    stars: true,
    minReviews: 5,
    noReact: true,
  },
  {
    // Eleventy's data file reads the ratings and reviews the pages show (2 calls), then
    // `verified-reviews inject` reads the summaries and reviews of the JSON-LD (2 calls): 4 for a need of 2.
    name: 'static-eleventy',
    kind: 'static',
    products: PRODUCTS,
    output: '_site',
    need: 2,
    bound: 5,
    stars: true,
    minReviews: 5,
    noReact: false,
  },
]
