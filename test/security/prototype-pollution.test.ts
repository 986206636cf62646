// Prototype pollution: every public reader of forms, query strings, JSON bodies and option objects is
// fed names that would reach Object.prototype if they became keys (`__proto__`, `constructor`,
// `prototype`, in many shapes). After each, no prototype has changed and the reader refused or ignored
// the name. Names the upstream API controls (product ids, review locales) are fed the same way.
import { createHash } from 'node:crypto'
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  PURCHASE_EVENT_FORM_FIELDS,
  type PurchaseEventInput,
  purchaseEventFromForm,
  ValidationError,
} from '@verified-reviews/core'
import { createReviewsHandler } from '@verified-reviews/core/endpoint'
import { otherParams, parseReviewView, viewQuery } from '@verified-reviews/core/internal'
import { mergeJsonLd } from '@verified-reviews/core/jsonld'
import { prefetchBuildData } from '@verified-reviews/core/prefetch'
import { createSqliteReviewStore } from '@verified-reviews/core/sync'
import { fromLegacyReviewsParams } from '@verified-reviews/migrate'
import { ProductReviewsView } from '@verified-reviews/react'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import verifiedReviews, { VerifiedReviewsOptionError } from '../../packages/astro/src/index.ts'
import { submitPurchaseEvent } from '../../packages/next/src/purchase-events.ts'
import { createRevalidateRoute } from '../../packages/next/src/revalidate-route.ts'
import { reviewTags } from '../../packages/next/src/tags.ts'
import { productReview, productSummary } from '../fixtures/reviews.ts'
import { startSandbox, type TestSandbox } from '../fixtures/sandbox.ts'

// One sandbox for the file, not reset between tests: most tests here need none, and those that send
// purchase events compare counts.
let live: TestSandbox | undefined
const sb = {
  get it(): TestSandbox {
    if (live === undefined) throw new Error('the sandbox starts in beforeAll')
    return live
  },
  get sandbox() {
    return sb.it.sandbox
  },
  client: (...args: Parameters<TestSandbox['client']>) => sb.it.client(...args),
  stats: () => sb.it.stats(),
  admin: (...args: Parameters<TestSandbox['admin']>) => sb.it.admin(...args),
}

/** Ids and review locales of the upstream API's data that name prototype members. */
const UPSTREAM_IDS = ['__proto__', 'constructor', 'prototype']

beforeAll(async () => {
  expectNoPollution()
  live = await startSandbox({ seed: 1, rateLimit: 0 })
  await live.admin(
    'POST',
    'product-reviews',
    UPSTREAM_IDS.map((id) => ({ product_variation_id: id, locale: id, review_content: `About ${id}` })),
  )
})

afterAll(async () => {
  await live?.close()
  expectNoPollution()
})

async function purchaseEventCount(): Promise<number> {
  return ((await sb.admin('GET', 'purchase-events')) as unknown[]).length
}

// ---- what must stay untouched ----

const PROBES = ['polluted', 'vr_sort', 'vr_cursor', 'limit', 'x'] as const
const PROTOTYPES = [
  Object.prototype,
  Array.prototype,
  Function.prototype,
  String.prototype,
  Number.prototype,
  Boolean.prototype,
]
const ownKeys = () => PROTOTYPES.map((prototype) => Reflect.ownKeys(prototype).map(String).sort().join())
const BASELINE = ownKeys()

function expectNoPollution(): void {
  const probe: Record<string, unknown> = {}
  for (const name of PROBES) expect(probe[name], `({}).${name}`).toBeUndefined()
  expect(ownKeys()).toEqual(BASELINE)
}

afterEach(() => {
  // A failing reader must not make every later test fail too.
  for (const prototype of PROTOTYPES) {
    for (const name of PROBES) delete (prototype as unknown as Record<string, unknown>)[name]
  }
  vi.restoreAllMocks()
})

// ---- hostile names ----

/** Form and query names, dotted and bracketed, alone and under every member of a purchase event. */
const HOSTILE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  '__proto__.polluted',
  '__proto__[polluted]',
  '__proto__[]',
  'constructor.prototype.polluted',
  'constructor[prototype][polluted]',
  'prototype.polluted',
  'a[__proto__]',
  'a[__proto__][polluted]',
  'a.__proto__.polluted',
  '__PROTO__.polluted',
  'consumer.__proto__',
  'consumer.__proto__.polluted',
  'consumer[__proto__][polluted]',
  'consumer.constructor.prototype.polluted',
  'consumer.email.__proto__',
  'products[0].__proto__.polluted',
  'products[0].constructor.prototype.polluted',
  'products[__proto__].polluted',
  'products[0][__proto__][polluted]',
  'products[0].product_ref.__proto__.polluted',
  'products[0].product_ref.constructor.prototype.polluted',
  'products[0].custom_fields[0].__proto__.polluted',
  'custom_fields[0].constructor.prototype.polluted',
  'consumer.custom_fields[0].prototype.polluted',
  'sales_channel.__proto__.polluted',
  'solicitation_parameters.prototype.polluted',
  'price.__proto__',
  'purchase_reference.constructor.prototype.polluted',
]

/** Query strings whose names are hostile, raw and percent-encoded. */
const HOSTILE_QUERIES = [
  ...HOSTILE_NAMES.map((name) => `${name}=yes`),
  '__proto__%5Bpolluted%5D=yes',
  '%5F%5Fproto%5F%5F.polluted=yes',
  'constructor%2Eprototype%2Epolluted=yes',
  '__proto__[polluted]=yes&__proto__[polluted]=again',
]

/** A JSON object member that reaches a prototype if a reader assigns it; written as text, as a body is. */
const HOSTILE_MEMBERS = [
  '"__proto__":{"polluted":"yes"}',
  '"constructor":{"prototype":{"polluted":"yes"}}',
  '"prototype":{"polluted":"yes"}',
]

function formOf(entries: ReadonlyArray<readonly [string, string]>): FormData {
  const form = new FormData()
  for (const [name, value] of entries) form.append(name, value)
  return form
}

// ---- the purchase event form reader ----

describe('the purchase event form reader (purchaseEventFromForm)', () => {
  it.each(HOSTILE_NAMES)('refuses or ignores the form field %s, with any fields allowed', (name) => {
    for (const fields of [undefined, PURCHASE_EVENT_FORM_FIELDS]) {
      const { values, errors } = purchaseEventFromForm(formOf([[name, 'yes']]), fields ? { fields } : {})
      expect(values).toEqual({})
      expect(Object.keys(errors)).toEqual([name])
      expectNoPollution()
    }
  })

  it.each(HOSTILE_QUERIES)('refuses or ignores the URL-encoded form %s', (query) => {
    const { values } = purchaseEventFromForm(new URLSearchParams(query), {
      fields: PURCHASE_EVENT_FORM_FIELDS,
    })
    expect(JSON.stringify(values)).not.toContain('yes')
    expectNoPollution()
  })

  it('reads the legitimate fields of a form that also carries every hostile name', () => {
    const { values, errors } = purchaseEventFromForm(
      formOf([['consumer.email', 'ada@example.com'], ...HOSTILE_NAMES.map((name) => [name, 'yes'] as const)]),
    )
    expect(values).toEqual({ consumer: { email: 'ada@example.com' } })
    expect(Object.keys(errors).sort()).toEqual([...HOSTILE_NAMES].sort())
    expectNoPollution()
  })
})

// ---- submitPurchaseEvent (Next.js Server Actions) ----

describe('submitPurchaseEvent', () => {
  const submitted: unknown[] = []
  const client = {
    purchaseEvents: {
      async submit(params: { events: readonly unknown[] }) {
        submitted.push(...params.events)
        return []
      },
    },
  }

  it.each(HOSTILE_NAMES)('sends nothing for a posted form with the field %s', async (name) => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    submitted.length = 0
    const form = formOf([
      [name, 'yes'],
      ['purchase_reference', 'ORDER-1'],
      ['consumer.email', 'ada@example.com'],
    ])
    const result = await submitPurchaseEvent(form as unknown as PurchaseEventInput, {
      client,
      websiteId: '00000000-0000-4000-8000-000000000000',
    })
    expectNoPollution()
    expect(result.ok).toBe(false)
    expect(submitted).toEqual([])
  })

  it.each(HOSTILE_MEMBERS)(
    'refuses an event parsed from JSON with %s, by field, and sends nothing',
    async (member) => {
      const event = JSON.parse(
        `{"purchase_reference":"ORDER-1","purchase_date":"2026-03-01T10:00:00Z",` +
          `"consumer":{"email":"ada@example.com",${member}},"sales_channel":{"channel":"online"},${member}}`,
      ) as PurchaseEventInput
      const before = await purchaseEventCount()
      const result = await submitPurchaseEvent(event, {
        client: sb.client({ websiteId: undefined }),
        websiteId: sb.sandbox.websiteId,
      })
      const name = /"(\w+)"/.exec(member)?.[1] as string
      expect(result.ok).toBe(false)
      expect(Object.hasOwn(result.errors, name)).toBe(true)
      expect(Object.hasOwn(result.errors, `consumer.${name}`)).toBe(true)
      expect(await purchaseEventCount()).toBe(before)
      expectNoPollution()
    },
  )
})

// ---- the sandbox, over HTTP ----

async function token(path: string, form: Record<string, string>, extra = ''): Promise<Response> {
  return fetch(`${sb.sandbox.origin}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${btoa(`${sb.sandbox.clientId}:${sb.sandbox.clientSecret}`)}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `${new URLSearchParams(form)}${extra}`,
  })
}

const PUBLISHED_TOKEN = [
  '/realms/skeepers/protocol/openid-connect/token',
  { grant_type: 'client_credentials', audience: 'verified-reviews' },
] as const
const EVENTS_TOKEN = [
  '/am/oauth2/alpha/access_token',
  { grant_type: 'client_credentials', scope: 'openid' },
] as const

async function bearer(kind: typeof PUBLISHED_TOKEN | typeof EVENTS_TOKEN): Promise<string> {
  const answer = await token(kind[0], kind[1])
  return String(((await answer.json()) as { access_token: string }).access_token)
}

function genesisToken(): string {
  const day = new Date().toISOString().slice(0, 10)
  return createHash('sha256').update(`${sb.sandbox.websiteId}${sb.sandbox.genesisSecret}${day}`).digest('hex')
}

async function postJson(path: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${sb.sandbox.origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  })
}

const PUBLISHED_PATHS = [
  '/products',
  '/products/reviews',
  '/products/ratings',
  '/products/structured-datas',
  '/brands/reviews',
  '/brands',
]

describe('the sandbox, over HTTP', () => {
  it.each(PUBLISHED_PATHS)('refuses hostile query names on the Published API %s with 400', async (path) => {
    const auth = { authorization: `Bearer ${await bearer(PUBLISHED_TOKEN)}` }
    for (const query of HOSTILE_QUERIES) {
      const answer = await fetch(`${sb.sandbox.origin}/verified-reviews/v1/published${path}?${query}`, {
        headers: auth,
      })
      expect(answer.status, `${path}?${query}`).toBe(400)
      expectNoPollution()
    }
  })

  it('refuses hostile query names on the legacy API with 400', async () => {
    for (const query of HOSTILE_QUERIES) {
      for (const operation of ['reviews', 'ratings']) {
        const answer = await fetch(
          `${sb.sandbox.origin}/v1/websites/${sb.sandbox.websiteId}/products/${operation}?${query}`,
        )
        expect(answer.status, `${operation}?${query}`).toBe(400)
      }
      expectNoPollution()
    }
  })

  it('refuses hostile query names on the Genesis API with 400', async () => {
    const auth = `idWebsite=${sb.sandbox.websiteId}&token=${genesisToken()}`
    for (const query of HOSTILE_QUERIES) {
      const answer = await fetch(`${sb.sandbox.origin}/genesis/website?${auth}&${query}`)
      expect(answer.status, query).toBe(400)
      const product = await postJson(
        `/genesis/product?${auth}&${query}`,
        '{"query":"reviews","product":["SKU-001"]}',
      )
      expect(product.status, query).toBe(400)
      expectNoPollution()
    }
  })

  it.each(HOSTILE_MEMBERS)('refuses a Genesis product body with %s', async (member) => {
    const auth = `idWebsite=${sb.sandbox.websiteId}&token=${genesisToken()}`
    const answer = await postJson(
      `/genesis/product?${auth}`,
      `{"query":"reviews","product":["SKU-001"],${member}}`,
    )
    expect(answer.status).toBe(400)
    expectNoPollution()
  })

  it('answers Genesis products named __proto__ and constructor as keys like any other', async () => {
    const auth = `idWebsite=${sb.sandbox.websiteId}&token=${genesisToken()}`
    const answer = await postJson(
      `/genesis/product?${auth}`,
      '{"query":"average","product":["__proto__","constructor","SKU-001"]}',
    )
    expect(answer.status).toBe(200)
    const body = JSON.parse(await answer.text()) as Record<string, unknown>
    expect(Object.keys(body)).toContain('SKU-001')
    expectNoPollution()
  })

  it.each(HOSTILE_MEMBERS)(
    'refuses purchase events with %s, at the top and in the consumer',
    async (member) => {
      const auth = { authorization: `Bearer ${await bearer(EVENTS_TOKEN)}` }
      const before = await purchaseEventCount()
      const path = `/purchase-event/websites/${sb.sandbox.websiteId}/purchase-events`
      const event = (inConsumer: string, atTop: string) =>
        `[{"purchase_reference":"ORDER-1","purchase_date":"2026-03-01T10:00:00Z",` +
        `"consumer":{"email":"ada@example.com"${inConsumer}},"sales_channel":{"channel":"online"}${atTop}}]`
      for (const body of [event(`,${member}`, ''), event('', `,${member}`)]) {
        const answer = await postJson(path, body, auth)
        expect(answer.status, body).toBe(400)
        expectNoPollution()
      }
      expect(await purchaseEventCount()).toBe(before)
    },
  )

  it('ignores or refuses hostile fields of the token forms', async () => {
    for (const kind of [PUBLISHED_TOKEN, EVENTS_TOKEN]) {
      for (const query of HOSTILE_QUERIES) {
        const answer = await token(kind[0], kind[1], `&${query}`)
        expect(answer.status, query).toBeLessThan(500)
        expectNoPollution()
      }
    }
  })

  it.each(HOSTILE_MEMBERS)('refuses review additions and fault rules with %s', async (member) => {
    for (const [path, item] of [
      ['product-reviews', '"product_variation_id":"SKU-001"'],
      ['brand-reviews', '"review_rate":5'],
      ['faults', '"operation":"*","status":500'],
    ]) {
      const answer = await postJson(`/__sandbox/${path}`, `[{${item},${member}}]`)
      expect(answer.status, path).toBe(400)
      expectNoPollution()
    }
  })
})

// ---- names the upstream API controls ----

describe('names the upstream API controls', () => {
  it('serves products whose ids and review locales are __proto__, constructor and prototype', async () => {
    for (const operation of ['reviews', 'ratings']) {
      const answer = await fetch(
        `${sb.sandbox.origin}/v1/websites/${sb.sandbox.websiteId}/products/${operation}?ref=${UPSTREAM_IDS.join(',')}`,
      )
      expect(answer.status, operation).toBe(200)
    }
    const page = await sb.client().products.reviews.list({ product_variation_id: UPSTREAM_IDS })
    expect(page.data.map((review) => review.product_variation_id).sort()).toEqual([...UPSTREAM_IDS].sort())
    expectNoPollution()
  })

  it('keeps the build prefetch of such products, in memory and through its file', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'vr-pollution-'))
    try {
      const first = await prefetchBuildData({ client: sb.client(), directory: join(directory, 'a') })
      // Every file of the build data (the summaries and the reviews beside them), read back by a second build.
      await cp(join(directory, 'a'), join(directory, 'b'), { recursive: true })
      const second = await prefetchBuildData({ client: sb.client(), directory: join(directory, 'b') })
      for (const data of [first, second]) {
        for (const id of UPSTREAM_IDS) expect(data.reviews(id), id).toHaveLength(1)
        for (const id of ['toString', 'hasOwnProperty', 'valueOf']) expect(data.reviews(id), id).toEqual([])
      }
      expectNoPollution()
    } finally {
      await rm(directory, { recursive: true, force: true })
    }
  })

  it('imports a JSON review store whose file carries hostile members and ids', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'vr-pollution-'))
    const path = join(directory, 'store.json')
    const review = (id: string) => JSON.stringify(productReview({ review_id: id, product_variation_id: id }))
    await writeFile(
      path,
      `{"format":"verified-reviews/review-store","version":1,"checkpoint":null,${HOSTILE_MEMBERS.join(',')},` +
        `"reviews":[${UPSTREAM_IDS.map(review).join(',')}]}`,
    )
    try {
      const store = createSqliteReviewStore(path)
      for (const id of UPSTREAM_IDS) expect(await store.list(id), id).toHaveLength(1)
      expect(await store.list('toString')).toEqual([])
      await store.close()
      expectNoPollution()
    } finally {
      await rm(directory, { recursive: true, force: true })
    }
  })
})

describe("a page's own JSON-LD", () => {
  it.each(HOSTILE_MEMBERS)('merges review markup into a Product node that carries %s', (member) => {
    const page = JSON.parse(
      `{"@context":"https://schema.org","@type":"Product","name":"Teapot",${member},"offers":{${member}}}`,
    ) as unknown
    const [merged] = mergeJsonLd([page], { '@type': 'Product', aggregateRating: { ratingValue: 4.5 } }) as [
      Record<string, unknown>,
    ]
    expect(merged).toMatchObject({ name: 'Teapot', aggregateRating: { ratingValue: 4.5 } })
    expect(merged.polluted).toBeUndefined()
    expectNoPollution()
  })
})

// ---- the reviews endpoint and the revalidate route ----

describe('the reviews endpoint', () => {
  it('refuses hostile query names with 400, before any API call', async () => {
    const handler = createReviewsHandler({ client: sb.client() })
    const before = (await sb.stats()).total
    for (const query of HOSTILE_QUERIES) {
      const answer = await handler(
        new Request(`http://shop.example/api/reviews?product_variation_id=SKU-001&${query}`),
      )
      expect(answer.status, query).toBe(400)
      expectNoPollution()
    }
    expect((await sb.stats()).total).toBe(before)
  })
})

describe('the revalidate route', () => {
  const secret = 'a-revalidate-secret'

  it('ignores hostile query names and JSON bodies, and revalidates upstream ids like any other', async () => {
    const revalidated: string[] = []
    const route = createRevalidateRoute({
      secret,
      client: sb.client(),
      store: 'memory',
      brandStore: false,
      revalidate: (tag) => revalidated.push(tag),
    })
    const answers = []
    for (const query of HOSTILE_QUERIES.slice(0, 6)) {
      for (const member of HOSTILE_MEMBERS) {
        const answer = await route.POST(
          new Request(`http://shop.example/api/revalidate?${query}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
            body: `{${member}}`,
          }),
        )
        answers.push(answer.status)
        expectNoPollution()
      }
    }
    expect(new Set(answers)).toEqual(new Set([200]))
    for (const id of UPSTREAM_IDS) expect(revalidated).toContain(reviewTags.product(id))
  })

  it.each(['__proto__', 'constructor', 'prototype', 'toString'])('refuses mode=%s with 400', async (mode) => {
    const route = createRevalidateRoute({ secret, client: sb.client(), store: 'memory', brandStore: false })
    const answer = await route.GET(
      new Request(`http://shop.example/api/revalidate?mode=${mode}`, {
        headers: { authorization: `Bearer ${secret}` },
      }),
    )
    expect(answer.status).toBe(400)
    expectNoPollution()
  })
})

// ---- page-URL params of the React and Astro components ----

describe('the page-URL params of the review components', () => {
  const HOSTILE_VIEW_QUERIES = [
    ...HOSTILE_QUERIES,
    '__proto__[vr_sort]=lowest',
    'constructor.prototype.vr_sort=lowest',
    'vr_sort[__proto__]=lowest',
    'vr_cursor.__proto__=abc',
  ]

  it.each(HOSTILE_VIEW_QUERIES)('reads ?%s as the default view and keeps it as text', (query) => {
    // Astro components read `Astro.url.searchParams`, React ones a URLSearchParams or a record.
    for (const params of [new URLSearchParams(query), Object.fromEntries(new URLSearchParams(query))]) {
      expect(parseReviewView(params)).toEqual({ sort: 'newest', rates: [], cursor: undefined })
      const given = params instanceof URLSearchParams ? params : new URLSearchParams(params)
      expect(new URLSearchParams(viewQuery(otherParams(params), parseReviewView(params))).toString()).toBe(
        given.toString(),
      )
      expectNoPollution()
    }
  })

  it("reads only a record's own params, never those its prototype carries", () => {
    const inherited = Object.create({ vr_sort: 'lowest', vr_rate: '1', vr_cursor: 'abc' }) as Record<
      string,
      string
    >
    expect(parseReviewView(inherited)).toEqual({ sort: 'newest', rates: [], cursor: undefined })
  })

  it('renders the React view of a page whose params are hostile', () => {
    const searchParams = JSON.parse(
      '{"__proto__":{"vr_sort":"lowest"},"constructor":"x","page":"2"}',
    ) as Record<string, string>
    const html = renderToStaticMarkup(
      createElement(ProductReviewsView, {
        productId: 'SKU-1',
        summary: productSummary(),
        reviews: [productReview({ review_id: 'a' })],
        nextCursor: 'n2',
        searchParams,
      }),
    )
    expect(html).toContain('href="?constructor=x&amp;page=2&amp;vr_cursor=n2"')
    expectNoPollution()
  })
})

// ---- options objects ----

describe('option objects', () => {
  it.each(HOSTILE_MEMBERS)('the Astro integration refuses options parsed with %s', (member) => {
    const options = JSON.parse(`{${member}}`) as Parameters<typeof verifiedReviews>[0]
    expect(() => verifiedReviews(options)).toThrow(VerifiedReviewsOptionError)
    expectNoPollution()
  })

  it.each(HOSTILE_MEMBERS)('the client refuses list params parsed with %s, naming it', async (member) => {
    const params = JSON.parse(`{"limit":1,${member}}`) as { limit: number }
    const error = await sb
      .client()
      .products.reviews.list(params)
      .then(
        () => undefined,
        (caught: unknown) => caught,
      )
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).field).toBe(/"(\w+)"/.exec(member)?.[1])
    expectNoPollution()
  })

  it('the legacy params migration drops sort fields named after prototype members', () => {
    const { params, dropped } = fromLegacyReviewsParams({
      sortBy: ['__proto__', 'constructor', 'toString'] as unknown as ['rate'],
    })
    expect(params.sort).toBeUndefined()
    expect(dropped.filter((note) => note.field === 'sortBy')).toHaveLength(3)
    expectNoPollution()
  })
})
