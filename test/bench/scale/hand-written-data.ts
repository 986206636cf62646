/**
 * The data of the hand-written baselines of `pnpm bench:scale` (test/bench/fixtures/next-scale-hand,
 * astro-scale-hand): the same reviews the library's build shows, as local JSON files that those apps read
 * without any package of ours. The bench (not the baseline) fetches them from the sandbox and picks each
 * product's page the way the library's build does (`loadProductView` over the build's data: the newest
 * reviews first, the next cursor signed with the key of the client the reviews route checks), so that
 * both render the same HTML, the same JSON-LD and the island with the same props.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createClient, type ProductReview, type ProductSummary } from '@verified-reviews/core'
import { cursorSigner } from '@verified-reviews/core/endpoint'
import { buildDataSource, loadProductView } from '@verified-reviews/core/internal'

/** What the baselines read for one product: `<dir>/<id>.json`. */
export interface HandWrittenProduct {
  id: string
  /** The product's summary (ratings, criteria, AI summary); null when the API has none. */
  summary: Pick<ProductSummary, 'ratings' | 'extras' | 'review_summary'> | null
  /** The first page of its reviews, newest first, as the API sends them. */
  reviews: ProductReview[]
  /** The signed cursor of the next page (the island's `nextCursor`), null on the last page. */
  nextCursor: string | null
}

/** The file that lists the products of the baseline, in page order. */
export const HAND_WRITTEN_INDEX = 'index.json'

/** The path of a product's file. */
export function handWrittenFile(dir: string, id: string): string {
  return join(dir, `${id}.json`)
}

/**
 * Walks the sandbox's reviews and product summaries (200 a call) and writes one JSON file per product
 * of `ids` (its summary, its first page of `limit` reviews and the next cursor), plus the list of ids.
 * Returns the bytes written.
 */
export async function writeHandWrittenData(
  env: Record<string, string>,
  dir: string,
  ids: readonly string[],
  limit = 10,
): Promise<number> {
  const client = createClient({
    origin: env.VERIFIED_REVIEWS_ORIGIN,
    clientId: env.VERIFIED_REVIEWS_CLIENT_ID,
    clientSecret: env.VERIFIED_REVIEWS_CLIENT_SECRET,
  })
  const wanted = new Set(ids)
  const reviews = new Map<string, ProductReview[]>()
  for await (const review of client.products.reviews.list({ limit: 200 })) {
    if (!wanted.has(review.product_variation_id)) continue
    const list = reviews.get(review.product_variation_id) ?? []
    list.push(review)
    reviews.set(review.product_variation_id, list)
  }
  const summaries = new Map<string, ProductSummary>()
  for await (const summary of client.products.list({ limit: 200 })) {
    if (wanted.has(summary.product_variation_id)) summaries.set(summary.product_variation_id, summary)
  }
  const source = buildDataSource({
    summaries: async (asked) =>
      new Map(
        (asked ?? [...summaries.keys()]).flatMap((id) => {
          const found = summaries.get(id)
          return found === undefined ? [] : [[id, found] as const]
        }),
      ),
    reviews: async (id) => reviews.get(id) ?? [],
  })
  const signer = cursorSigner(client)
  await mkdir(dir, { recursive: true })
  let bytes = 0
  for (const id of ids) {
    const view = await loadProductView({
      source,
      ids: [id],
      view: { sort: 'newest', rates: [] },
      limit,
      signer,
    })
    const product: HandWrittenProduct = {
      id,
      summary:
        view.summary === undefined
          ? null
          : {
              ratings: view.summary.ratings,
              extras: view.summary.extras,
              review_summary: view.summary.review_summary,
            },
      reviews: view.data,
      nextCursor: view.nextCursor ?? null,
    }
    const json = JSON.stringify(product)
    bytes += Buffer.byteLength(json)
    await writeFile(handWrittenFile(dir, id), json)
  }
  await writeFile(join(dir, HAND_WRITTEN_INDEX), JSON.stringify(ids))
  return bytes
}

/** Reads a product's file back. */
export async function readHandWrittenProduct(dir: string, id: string): Promise<HandWrittenProduct> {
  return JSON.parse(await readFile(handWrittenFile(dir, id), 'utf8')) as HandWrittenProduct
}
