/**
 * Benchmark of `@verified-reviews/react` (a figure, not a test): server render time of a product page
 * (rating summary with histogram and criteria, AI summary, sort and rate links, 20 reviews with every
 * part, next-page link, JSON-LD) by `ProductReviewsView`, against a hand-written baseline that builds the
 * same markup with template strings, and the same markup written by hand in JSX (compiled as the JSX
 * runtime does: React against React). Before timing, the outputs are compared: they must be the same
 * HTML (React's `<!-- -->` text separators aside). React runs its production build on the built package.
 *
 *   pnpm bench:react [--runs 400]   (builds core and react first)
 */
import { parseArgs } from 'node:util'
import type { ProductReview, ProductSummary } from '@verified-reviews/core'
import type { ElementType, ReactElement } from 'react'
import { productReview, productSummary } from '../fixtures/reviews.ts'

// React's production build is what a deployed page renders with; next's types make NODE_ENV read-only.
Object.assign(process.env, { NODE_ENV: 'production' })
const { createElement, Fragment } = await import('react')
const { jsx, jsxs } = await import('react/jsx-runtime')
const { renderToString } = await import('react-dom/server')
const { prerender } = await import('react-dom/static')
const { ProductReviewsView } = await import('@verified-reviews/react')
const { buildProductJsonLd, reviewAuthorName, serializeJsonLd } = await import(
  '@verified-reviews/core/jsonld'
)
const i18n = await import('@verified-reviews/core/i18n')

const { values } = parseArgs({ options: { runs: { type: 'string', default: '400' } } })
const runs = Number(values.runs)

const URL_OF_PAGE = 'https://shop.example/products/teapot'
const summary: ProductSummary = productSummary()
const reviews: ProductReview[] = Array.from({ length: 20 }, (_, i) =>
  productReview({
    review_id: `rev-${i}`,
    author_firstname: ['Marie', 'Jan', 'Ana', 'Luca', 'Eva'][i % 5] ?? 'Marie',
    review_rate: ((i % 5) + 1) as ProductReview['review_rate'],
    publish_date: `2025-03-${String(28 - i).padStart(2, '0')}T08:00:00Z`,
    incentivization: i % 7 === 0 ? 'gifted' : 'none',
    is_verified: i % 3 !== 0,
    ...(i % 2 === 0 ? {} : { translated_review: {}, moderations: [], medias: [] }),
  }),
)
const props = {
  productId: 'SKU-1',
  summary,
  reviews,
  nextCursor: 'next-cursor',
  url: URL_OF_PAGE,
  product: { name: 'Teapot', sku: 'SKU-1' },
}

// The baseline: the same page as template strings, with the same texts and JSON-LD from the core.

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
}
const esc = (value: string | number) => String(value).replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char)
// What a hand-written page would do: the messages of its language and one Intl formatter of each kind.
const messages = i18n.getMessages('en')
const plural = new Intl.PluralRules('en')
const numbers = new Intl.NumberFormat('en')
const oneDecimal = new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 })
const percents = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 0 })
const dates = new Intl.DateTimeFormat('en', { timeZone: 'UTC', dateStyle: 'long' })
const languages = new Intl.DisplayNames('en', { type: 'language' })
const t = (key: keyof typeof messages, params: Record<string, string | number> = {}) => {
  const message = messages[key]
  const template =
    typeof message === 'string'
      ? message
      : (message[plural.select(Number(params.count ?? 0))] ?? message.other)
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    return typeof value === 'number' ? numbers.format(value) : (value ?? '')
  })
}
const date = (iso: string) => dates.format(Date.parse(iso))

// The rating in tenths (rounded half up as the decimal reads, kept from 0 to 50), as `data-r` gives it.
const tenths = (value: number) =>
  Number.isFinite(value) ? Math.min(50, Math.max(0, Math.round(Number((value * 10).toPrecision(12))))) : 0

function stars(value: number, className: string, count?: number): string {
  const r = tenths(value)
  const rating = oneDecimal.format(r / 10)
  const label = count === undefined ? t('ratingOutOfFive', { rating }) : t('ratingLabel', { rating, count })
  return `<span class="vr-stars${className ? ` ${className}` : ''}" role="img" aria-label="${esc(label)}" data-r="${r}">${esc(t('ratingOutOfFiveShort', { rating }))}</span>`
}

function ratingSummary(data: ProductSummary): string {
  const { ratings } = data
  const rows = ([5, 4, 3, 2, 1] as const)
    .map((rate) => {
      const count = ratings[`count_${rate}`]
      const share = count / ratings.count_total
      const label = esc(t('starCount', { count: rate }))
      return (
        `<li data-rate="${rate}"><a href="?vr_rate=${rate}">${label}</a>` +
        `<meter value="${Math.round(share * 1000) / 1000}" aria-hidden="true"></meter>` +
        `<span>${esc(numbers.format(count))}</span>` +
        `<span>${esc(percents.format(share))}</span></li>`
      )
    })
    .join('')
  const criteria = data.extras
    .map(
      (extra) =>
        `<dt>${esc(extra.display_name)}</dt>` + `<dd>${stars(extra.rate.average, '', extra.rate.count)}</dd>`,
    )
    .join('')
  return (
    `<section class="vr-rating-summary"><h2 class="vr-rating-summary__heading">${esc(t('customerReviews'))}</h2>` +
    `<div class="vr-rating-summary__overview"><span class="vr-rating-summary__average" aria-hidden="true">${esc(oneDecimal.format(ratings.average))}</span>` +
    `${stars(ratings.average, 'vr-rating-summary__stars')}<span class="vr-rating-summary__count">${esc(t('reviewCount', { count: ratings.count_total }))}</span></div>` +
    `<ul class="vr-histogram" aria-label="${esc(t('ratingDistribution'))}">${rows}</ul>` +
    `<h3 class="vr-rating-summary__criteria-heading">${esc(t('ratingDetails'))}</h3><dl class="vr-rating-summary__criteria">${criteria}</dl></section>`
  )
}

function aiSummary(data: ProductSummary): string {
  const content = data.review_summary
  if (content === undefined) return ''
  const updated = `<time datetime="${esc(content.last_updated_at)}">${esc(date(content.last_updated_at))}</time>`
  return (
    `<section class="vr-review-summary"><h2 class="vr-review-summary__heading">${esc(t('aiSummary'))}</h2>` +
    `<p class="vr-review-summary__label">${esc(t('aiSummaryExplanation'))}</p>` +
    `<p class="vr-review-summary__content">${esc(content.content)}</p>` +
    `<p class="vr-review-summary__updated">${esc(t('updatedOn', { date: '\uE000' })).replace('\uE000', updated)}</p></section>`
  )
}

function translated(
  block: string,
  original: string,
  translations: Record<string, string> | undefined,
  locale: string,
) {
  const source = locale.slice(0, 2).toLowerCase()
  const translation = translations?.en
  if (translation === undefined || translation === original || source === 'en') {
    return `<p class="${block}__content"${source === 'en' ? '' : ` lang="${source}"`}>${esc(original)}</p>`
  }
  return (
    `<p class="${block}__translation-note">${esc(t('translatedFrom', { language: languages.of(source) ?? source }))}</p>` +
    `<p class="${block}__content">${esc(translation)}</p>` +
    `<details class="${block}__original"><summary>${esc(t('showOriginal'))}</summary>` +
    `<p lang="${source}">${esc(original)}</p></details>`
  )
}

function review(item: ProductReview): string {
  const author = reviewAuthorName(item) || t('anonymousAuthor')
  const badges =
    (item.is_verified
      ? `<details class="vr-review__verified"><summary>${esc(t('verifiedPurchase'))}</summary>${esc(t('verifiedPurchaseExplanation'))}</details>`
      : '') +
    (item.incentivization === 'gifted'
      ? `<p class="vr-review__disclosure vr-review__disclosure--gifted">${esc(t('giftedDisclosure'))}</p>`
      : '')
  const criteria = Object.entries(item.extras ?? {})
    .map(([, extra]) =>
      extra.type === 'I1'
        ? `<dt>${esc(extra.display_name)}</dt><dd>${esc(t('ratingOutOfFive', { rating: oneDecimal.format(tenths(extra.value) / 10) }))}</dd>`
        : `<dt>${esc(extra.display_name)}</dt><dd>${esc(extra.value)}</dd>`,
    )
    .join('')
  const medias = item.medias
    .map((media) => {
      const srcset = `${media.small} 200w, ${media.medium} 600w`
      return (
        `<li><a href="${esc(media.large)}"><img src="${esc(media.small)}" ` +
        `srcSet="${esc(srcset)}" sizes="96px" width="96" height="96" loading="lazy" decoding="async" alt="${esc(t('photoFromReviewBy', { author }))}"/></a></li>`
      )
    })
    .join('')
  const replies = item.moderations
    .map(
      (reply) =>
        `<div class="vr-reply"><p class="vr-reply__heading">${esc(t('merchantResponse'))} ` +
        `<time dateTime="${esc(reply.date)}">${esc(date(reply.date))}</time></p>` +
        `${translated('vr-reply', reply.comment, reply.translated_comment, item.locale)}</div>`,
    )
    .join('')
  return (
    `<li><article class="vr-review" data-rate="${item.review_rate}">` +
    `<h3>${esc(author)}</h3>${stars(item.review_rate, '')}` +
    `<time dateTime="${esc(item.review_date)}">${esc(date(item.review_date))}</time>` +
    badges +
    translated('vr-review', item.review_content, item.translated_review, item.locale) +
    (criteria ? `<dl class="vr-review__criteria">${criteria}</dl>` : '') +
    (medias ? `<ul class="vr-review__medias">${medias}</ul>` : '') +
    replies +
    '</article></li>'
  )
}

const SORTS = [
  ['sortNewest', '?'],
  ['sortOldest', '?vr_sort=oldest'],
  ['sortHighestRating', '?vr_sort=highest'],
  ['sortLowestRating', '?vr_sort=lowest'],
] as const

function controls(): string {
  const option = (label: string, href: string, current: boolean) =>
    `<li><a href="${href}"${current ? ' aria-current="true"' : ''}>${esc(label)}</a></li>`
  const rates = [5, 4, 3, 2, 1].map((rate) =>
    option(t('starCount', { count: rate }), `?vr_rate=${rate}`, false),
  )
  return (
    `<div class="vr-review-controls"><nav class="vr-review-controls__sort" aria-label="${esc(t('sortBy'))}">` +
    `<span aria-hidden="true">${esc(t('sortBy'))}</span><ul>` +
    SORTS.map(([key, href], i) => option(t(key), href, i === 0)).join('') +
    `</ul></nav><nav class="vr-review-controls__filter" aria-label="${esc(t('filterByRating'))}">` +
    `<span aria-hidden="true">${esc(t('filterByRating'))}</span><ul>` +
    option(t('allRatings'), '?', true) +
    rates.join('') +
    '</ul></nav></div>'
  )
}

function baseline(): string {
  const jsonLd = buildProductJsonLd({
    url: URL_OF_PAGE,
    product: props.product,
    rating: summary.ratings,
    reviews,
    locale: 'en',
  })
  return (
    '<div class="vr-product-reviews">' +
    ratingSummary(summary) +
    aiSummary(summary) +
    `<section class="vr-review-list"><h2 class="vr-review-list__heading">${esc(t('reviews'))}</h2>` +
    `<details class="vr-review-list__checks"><summary>${esc(t('howReviewsAreChecked'))}</summary>` +
    `<p class="vr-review-list__checks-explanation">${esc(t('reviewsCheckedExplanation', { provider: 'Verified Reviews' }))}</p></details>` +
    controls() +
    `<ol class="vr-review-list__items">${reviews.map(review).join('')}</ol>` +
    `<nav class="vr-review-list__pagination" aria-label="${esc(t('reviewPages'))}">` +
    `<a class="vr-review-list__next" href="?vr_cursor=next-cursor" rel="next">${esc(t('nextPage'))}</a></nav></section>` +
    `<script type="application/ld+json">${serializeJsonLd(jsonLd)}</script></div>`
  )
}

// The same page written by hand in JSX, compiled as the automatic JSX runtime does (`jsx`/`jsxs` calls):
// React against React, the components' own work set apart from React's.

type Child = ReactElement | string | number | false | null | undefined | Child[]
const h = (
  type: ElementType,
  attributes: Record<string, unknown> | null,
  ...children: Child[]
): ReactElement => {
  const props: Record<string, unknown> = { ...attributes }
  if (children.length === 1) props.children = children[0]
  else if (children.length > 1) props.children = children
  return (children.length > 1 ? jsxs : jsx)(type, props)
}

function jsxStars(value: number, className: string, count?: number): ReactElement {
  const r = tenths(value)
  const rating = oneDecimal.format(r / 10)
  const label = count === undefined ? t('ratingOutOfFive', { rating }) : t('ratingLabel', { rating, count })
  return h(
    'span',
    {
      className: `vr-stars${className ? ` ${className}` : ''}`,
      role: 'img',
      'aria-label': label,
      'data-r': r,
    },
    t('ratingOutOfFiveShort', { rating }),
  )
}

function jsxRatingSummary(data: ProductSummary): ReactElement {
  const { ratings } = data
  return h(
    'section',
    { className: 'vr-rating-summary' },
    h('h2', { className: 'vr-rating-summary__heading' }, t('customerReviews')),
    h(
      'div',
      { className: 'vr-rating-summary__overview' },
      h(
        'span',
        { className: 'vr-rating-summary__average', 'aria-hidden': 'true' },
        oneDecimal.format(ratings.average),
      ),
      jsxStars(ratings.average, 'vr-rating-summary__stars'),
      h('span', { className: 'vr-rating-summary__count' }, t('reviewCount', { count: ratings.count_total })),
    ),
    h(
      'ul',
      { className: 'vr-histogram', 'aria-label': t('ratingDistribution') },
      ([5, 4, 3, 2, 1] as const).map((rate) => {
        const count = ratings[`count_${rate}`]
        const share = count / ratings.count_total
        return h(
          'li',
          { key: rate, 'data-rate': rate },
          h('a', { href: `?vr_rate=${rate}` }, t('starCount', { count: rate })),
          h('meter', { value: Math.round(share * 1000) / 1000, 'aria-hidden': 'true' }),
          h('span', null, numbers.format(count)),
          h('span', null, percents.format(share)),
        )
      }),
    ),
    h('h3', { className: 'vr-rating-summary__criteria-heading' }, t('ratingDetails')),
    h(
      'dl',
      { className: 'vr-rating-summary__criteria' },
      data.extras.map((extra) =>
        h(
          Fragment,
          { key: extra.display_name },
          h('dt', null, extra.display_name),
          h('dd', null, jsxStars(extra.rate.average, '', extra.rate.count)),
        ),
      ),
    ),
  )
}

function jsxAiSummary(data: ProductSummary): ReactElement | null {
  const content = data.review_summary
  if (content === undefined) return null
  const [before, after] = t('updatedOn', { date: '\uE000' }).split('\uE000')
  return h(
    'section',
    { className: 'vr-review-summary' },
    h('h2', { className: 'vr-review-summary__heading' }, t('aiSummary')),
    h('p', { className: 'vr-review-summary__label' }, t('aiSummaryExplanation')),
    h('p', { className: 'vr-review-summary__content' }, content.content),
    h(
      'p',
      { className: 'vr-review-summary__updated' },
      before,
      h('time', { dateTime: content.last_updated_at }, date(content.last_updated_at)),
      after,
    ),
  )
}

function jsxTranslated(
  block: string,
  original: string,
  translations: Record<string, string> | undefined,
  locale: string,
): Child {
  const source = locale.slice(0, 2).toLowerCase()
  const translation = translations?.en
  if (translation === undefined || translation === original || source === 'en') {
    return h('p', { className: `${block}__content`, lang: source === 'en' ? undefined : source }, original)
  }
  return [
    h(
      'p',
      { key: 'note', className: `${block}__translation-note` },
      t('translatedFrom', { language: languages.of(source) ?? source }),
    ),
    h('p', { key: 'text', className: `${block}__content` }, translation),
    h(
      'details',
      { key: 'original', className: `${block}__original` },
      h('summary', null, t('showOriginal')),
      h('p', { lang: source }, original),
    ),
  ]
}

function jsxReview(item: ProductReview): ReactElement {
  const author = reviewAuthorName(item) || t('anonymousAuthor')
  const criteria = Object.entries(item.extras ?? {})
  return h(
    'li',
    { key: item.review_id },
    h(
      'article',
      { className: 'vr-review', 'data-rate': item.review_rate },
      h('h3', null, author),
      jsxStars(item.review_rate, ''),
      h('time', { dateTime: item.review_date }, date(item.review_date)),
      item.is_verified &&
        h(
          'details',
          { className: 'vr-review__verified' },
          h('summary', null, t('verifiedPurchase')),
          t('verifiedPurchaseExplanation'),
        ),
      item.incentivization === 'gifted' &&
        h('p', { className: 'vr-review__disclosure vr-review__disclosure--gifted' }, t('giftedDisclosure')),
      jsxTranslated('vr-review', item.review_content, item.translated_review, item.locale),
      criteria.length > 0 &&
        h(
          'dl',
          { className: 'vr-review__criteria' },
          criteria.map(([code, extra]) =>
            h(
              Fragment,
              { key: code },
              h('dt', null, extra.display_name),
              h(
                'dd',
                null,
                extra.type === 'I1'
                  ? t('ratingOutOfFive', { rating: oneDecimal.format(tenths(extra.value) / 10) })
                  : extra.value,
              ),
            ),
          ),
        ),
      item.medias.length > 0 &&
        h(
          'ul',
          { className: 'vr-review__medias' },
          item.medias.map((media) =>
            h(
              'li',
              { key: media.large },
              h(
                'a',
                { href: media.large },
                h('img', {
                  src: media.small,
                  srcSet: `${media.small} 200w, ${media.medium} 600w`,
                  sizes: '96px',
                  width: 96,
                  height: 96,
                  loading: 'lazy',
                  decoding: 'async',
                  alt: t('photoFromReviewBy', { author }),
                }),
              ),
            ),
          ),
        ),
      item.moderations.map((reply) =>
        h(
          'div',
          { key: reply.date, className: 'vr-reply' },
          h(
            'p',
            { className: 'vr-reply__heading' },
            `${t('merchantResponse')} `,
            h('time', { dateTime: reply.date }, date(reply.date)),
          ),
          jsxTranslated('vr-reply', reply.comment, reply.translated_comment, item.locale),
        ),
      ),
    ),
  )
}

function jsxControls(): ReactElement {
  const option = (label: string, href: string, current: boolean) =>
    h('li', { key: href }, h('a', { href, ...(current ? { 'aria-current': 'true' } : {}) }, label))
  return h(
    'div',
    { className: 'vr-review-controls' },
    h(
      'nav',
      { className: 'vr-review-controls__sort', 'aria-label': t('sortBy') },
      h('span', { 'aria-hidden': 'true' }, t('sortBy')),
      h(
        'ul',
        null,
        SORTS.map(([key, href], i) => option(t(key), href, i === 0)),
      ),
    ),
    h(
      'nav',
      { className: 'vr-review-controls__filter', 'aria-label': t('filterByRating') },
      h('span', { 'aria-hidden': 'true' }, t('filterByRating')),
      h(
        'ul',
        null,
        option(t('allRatings'), '?', true),
        [5, 4, 3, 2, 1].map((rate) => option(t('starCount', { count: rate }), `?vr_rate=${rate}`, false)),
      ),
    ),
  )
}

function handWrittenJsx(): ReactElement {
  const jsonLd = buildProductJsonLd({
    url: URL_OF_PAGE,
    product: props.product,
    rating: summary.ratings,
    reviews,
    locale: 'en',
  })
  return h(
    'div',
    { className: 'vr-product-reviews' },
    jsxRatingSummary(summary),
    jsxAiSummary(summary),
    h(
      'section',
      { className: 'vr-review-list' },
      h('h2', { className: 'vr-review-list__heading' }, t('reviews')),
      h(
        'details',
        { className: 'vr-review-list__checks' },
        h('summary', null, t('howReviewsAreChecked')),
        h(
          'p',
          { className: 'vr-review-list__checks-explanation' },
          t('reviewsCheckedExplanation', { provider: 'Verified Reviews' }),
        ),
      ),
      jsxControls(),
      h('ol', { className: 'vr-review-list__items' }, reviews.map(jsxReview)),
      h(
        'nav',
        { className: 'vr-review-list__pagination', 'aria-label': t('reviewPages') },
        h(
          'a',
          { className: 'vr-review-list__next', href: '?vr_cursor=next-cursor', rel: 'next' },
          t('nextPage'),
        ),
      ),
    ),
    h('script', {
      type: 'application/ld+json',
      dangerouslySetInnerHTML: { __html: serializeJsonLd(jsonLd) },
    }),
  )
}

const page = (): ReactElement => createElement(ProductReviewsView, props)

async function prerendered(): Promise<string> {
  const { prelude } = await prerender(page())
  return await new Response(prelude).text()
}

// Same markup first: React writes `<!-- -->` between adjacent texts, and camel-cased attributes in lower case.
const normalize = (html: string) =>
  html
    .replaceAll('<!-- -->', '')
    .replace(/ (srcSet|dateTime)=/g, (_, name: string) => ` ${name.toLowerCase()}=`)
const fromReact = normalize(renderToString(page()))
for (const [name, byHand] of [
  ['template strings', normalize(baseline())],
  ['hand-written JSX', normalize(renderToString(handWrittenJsx()))],
] as const) {
  if (fromReact !== byHand) {
    const at = [...fromReact].findIndex((char, i) => char !== byHand[i])
    throw new Error(
      `the ${name} do not give the components' markup; from character ${at}:\nreact: ${fromReact.slice(at - 80, at + 120)}\nhand:  ${byHand.slice(at - 80, at + 120)}`,
    )
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

const timings = {
  renderToString: [] as number[],
  prerender: [] as number[],
  jsx: [] as number[],
  baseline: [] as number[],
}
const warmup = Math.max(20, Math.floor(runs / 10))
for (let run = 0; run < warmup + runs; run++) {
  // Interleaved, so that the machine's load falls on all three alike.
  let start = performance.now()
  renderToString(page())
  const a = performance.now() - start
  start = performance.now()
  await prerendered()
  const b = performance.now() - start
  start = performance.now()
  baseline()
  const c = performance.now() - start
  start = performance.now()
  renderToString(handWrittenJsx())
  const d = performance.now() - start
  if (run >= warmup) {
    timings.renderToString.push(a)
    timings.prerender.push(b)
    timings.baseline.push(c)
    timings.jsx.push(d)
  }
}

const base = median(timings.baseline)
const jsxBase = median(timings.jsx)
console.log(
  `Product page: 20 reviews, rating summary, AI summary, links, JSON-LD; ${fromReact.length.toLocaleString('en')} characters of HTML.`,
)
console.log(
  `Median of ${runs} runs after ${warmup} warm-up runs, Node ${process.versions.node}, React production build:\n`,
)
console.log('| render | median time | vs. the same markup in hand-written JSX | vs. template strings |')
console.log('|---|---|---|---|')
const names: Record<keyof typeof timings, string> = {
  renderToString: 'the components, React `renderToString`',
  prerender: 'the components, React `prerender`',
  jsx: 'hand-written JSX, React `renderToString`',
  baseline: 'template strings (baseline)',
}
for (const [name, values] of Object.entries(timings) as [keyof typeof timings, number[]][]) {
  const time = median(values)
  console.log(
    `| ${names[name]} | ${time.toFixed(3)} ms | ${(time / jsxBase).toFixed(2)}× | ${(time / base).toFixed(2)}× |`,
  )
}
